import type { ObjectRule } from './dsl.js';

/** Spec: BeneficiaryVerificationStatus values. */
export const BENEFICIARY_VERIFICATION_STATUSES = [
  'MATCHED',
  'PARTIAL_MATCH',
  'NOT_MATCHED',
  'UNSUPPORTED',
  'CHECKED_BY_RECEIVING_FI',
  'PENDING',
] as const;
export type BeneficiaryVerificationStatus = (typeof BENEFICIARY_VERIFICATION_STATUSES)[number];

/**
 * How an identifying member is normalised for duplicate detection:
 * - digits: keep 0-9 only (routing, sort code, CLABE)
 * - alnum: upper-case, keep A-Z0-9 (account numbers: "1234-5678" == "12345678")
 * - iban: upper-case, no whitespace
 * - bic: upper-case, trailing branch code XXX dropped (DEUTDEFF == DEUTDEFFXXX)
 * - text: trimmed, lower-case, single spaces (bank / provider names)
 * - phone: `+` and digits only
 * - lower: trimmed, lower-case (EVM hex, bech32, lightning, UPI VPA)
 * - exact: trimmed, case kept (base58: case is significant)
 * - pix: PIX key (email / uuid lower-cased; CPF, CNPJ, phone reduced to digits)
 */
export type IdentityKind = 'digits' | 'alnum' | 'iban' | 'bic' | 'text' | 'phone' | 'lower' | 'exact' | 'pix';

export type AccountInfo = Record<string, unknown>;

/** Everything the service knows about one accountType, in one declarative record. */
export interface VariantDefinition {
  readonly accountType: string;
  readonly family: 'bank' | 'wallet';
  /** Currencies the account may be created in; `ANY_ISO4217` for SWIFT. */
  readonly currencies: readonly string[] | 'ANY_ISO4217';
  /** The create-request shape, including the `accountType` literal. */
  readonly rule: ObjectRule;
  /** Identifying members, in identity order, with their normalisation. */
  readonly identity: Readonly<Record<string, IdentityKind>>;
  /** Response `paymentRails` for bank variants (reference `*AccountInfo`); absent for wallets. */
  readonly paymentRails?: (info: AccountInfo) => string[];
  readonly verification: BeneficiaryVerificationStatus;
  /** A valid create `accountInfo`, and the currency to create it in. */
  readonly example: AccountInfo;
  readonly exampleCurrency: string;
}
