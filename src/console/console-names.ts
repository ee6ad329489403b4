/**
 * How the console names a resource where an operator looks for a name rather than an id
 * (docs/console.md, "Names"): SQL fragments and the labels built from their columns. The id stays
 * on the page as secondary text; these only add what a person reads.
 */

/** A customer's name: the individual's full name, the business's legal name, else the platform's id for it. */
export const customerNameSql = (alias: string) =>
  `COALESCE(NULLIF(${alias}.profile->>'fullName', ''), NULLIF(${alias}.profile->'businessInfo'->>'legalName', ''), ${alias}.platform_customer_id)`;

const TYPE_WORDS: Record<string, string> = {
  INTERNAL_FIAT: 'account',
  INTERNAL_CRYPTO: 'crypto account',
  EMBEDDED_WALLET: 'wallet',
};

/** An internal account: its currency and type ("USD account", "USDC wallet"). */
export function internalAccountLabel(currency: string, type: string): string {
  return `${currency} ${TYPE_WORDS[type] ?? type.toLowerCase().replace(/_/g, ' ')}`;
}

/** The members that hold an external account's number or address, most telling first. */
const NUMBER_MEMBERS = [
  'accountNumber',
  'iban',
  'clabeNumber',
  'pixKey',
  'vpa',
  'address',
  'lightningAddress',
  'phoneNumber',
] as const;

/** The last four characters of the number or address (spaces dropped), or null when it has none. */
export function lastFour(info: Record<string, unknown>): string | null {
  for (const member of NUMBER_MEMBERS) {
    const value = info[member];
    if (typeof value === 'string' && value.trim()) {
      const compact = value.replace(/\s+/g, '');
      return compact.slice(-4);
    }
  }
  return null;
}

/** "USD_ACCOUNT" → "USD bank account", "SOLANA_WALLET" → "Solana wallet", "LIGHTNING" → "Lightning". */
export function accountTypeWords(accountType: string): string {
  const bank = /^([A-Z]{3})_ACCOUNT$/.exec(accountType);
  if (bank) return `${bank[1]} bank account`;
  if (accountType === 'SWIFT_ACCOUNT') return 'SWIFT bank account';
  const words = accountType.toLowerCase().split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An external account: the bank's name (or the wallet's custodian, or its kind) and the last four
 * of the number or address: "Chase Bank ••••8901", "Solana wallet ••••Ab12".
 */
export function externalAccountLabel(accountType: string, info: Record<string, unknown>): string {
  const name =
    (typeof info.bankName === 'string' && info.bankName.trim()) ||
    (typeof info.vaspName === 'string' && info.vaspName.trim()) ||
    accountTypeWords(accountType);
  const last = lastFour(info);
  return last ? `${name} ••••${last}` : name;
}

/** The beneficiary's name an external account pays, when it says. */
export function beneficiaryName(info: Record<string, unknown>): string | null {
  const b = info.beneficiary;
  if (!b || typeof b !== 'object') return null;
  const record = b as Record<string, unknown>;
  const name = record.fullName ?? record.legalName;
  return typeof name === 'string' && name.trim() ? name : null;
}
