/**
 * PROVIDER_REQUIRED_CUSTOMER_FIELDS, the setting, and its vocabulary: the reference's
 * `providerRequiredCustomerFields` of a platform currency (the customer information fields the
 * payment provider requires of a customer who uses that currency). Config parses it at load; the
 * customers area checks customers against it (MISSING_MANDATORY_USER_INFO) and GET /config shows
 * it per currency.
 *
 * The reference's CustomerInfoFieldName values that describe a platform's own customer (the others
 * describe a counterparty's institution or a payment and cannot be required of a customer here).
 */
export const CUSTOMER_INFO_FIELDS = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'COUNTRY_OF_RESIDENCE',
  'ID_TYPE',
] as const;
export type CustomerInfoField = (typeof CUSTOMER_INFO_FIELDS)[number];

const CURRENCY = /^[A-Z]{3,5}$/;

/** Parses `CURRENCY=FIELD|FIELD;CURRENCY=...` (empty: none). Throws with the reason on a malformed value. */
export function parseProviderRequiredFields(value: string): ReadonlyMap<string, readonly CustomerInfoField[]> {
  const out = new Map<string, CustomerInfoField[]>();
  if (value.trim() === '') return out;
  for (const entry of value.split(';')) {
    const [currency, fields, ...rest] = entry.split('=');
    if (rest.length || fields === undefined || !CURRENCY.test(currency))
      throw new Error(`'${entry}' is not CURRENCY=FIELD|FIELD`);
    if (out.has(currency)) throw new Error(`${currency} is named twice`);
    const names = fields.split('|');
    for (const name of names)
      if (!(CUSTOMER_INFO_FIELDS as readonly string[]).includes(name))
        throw new Error(`${name} is not one of ${CUSTOMER_INFO_FIELDS.join(', ')}`);
    out.set(currency, [...new Set(names)] as CustomerInfoField[]);
  }
  return out;
}

/** Why `value` does not parse (null: it does). */
export function providerRequiredFieldsProblem(value: string): string | null {
  try {
    parseProviderRequiredFields(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
