/** Error codes of the external-accounts area and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const EXTERNAL_ACCOUNTS_ERRORS = {
    DUPLICATE_EXTERNAL_ACCOUNT: 409,
};
//# sourceMappingURL=external-accounts.errors.js.map