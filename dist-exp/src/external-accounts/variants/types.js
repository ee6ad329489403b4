/** Spec: BeneficiaryVerificationStatus values. */
export const BENEFICIARY_VERIFICATION_STATUSES = [
    'MATCHED',
    'PARTIAL_MATCH',
    'NOT_MATCHED',
    'UNSUPPORTED',
    'CHECKED_BY_RECEIVING_FI',
    'PENDING',
];
//# sourceMappingURL=types.js.map