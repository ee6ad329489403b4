/** The reference's CSV columns (POST /customers/bulk/csv). */
export const CSV_COLUMNS = [
  'umaAddress',
  'platformCustomerId',
  'customerType',
  'fullName',
  'birthDate',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  'platformAccountId',
  'description',
  'email',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  'businessIncorporatedOn',
] as const;

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * A CSV record as a POST /customers body (validated by the same rules): empty cells are omitted,
 * the UMA address gets its `$` when written without one (the reference's example has none).
 * `platformAccountId` and `description` are accepted and not kept (customers have no such field).
 * A business's `country` is also its `businessInfo.country`; `businessIncorporatedOn` (not a
 * reference column) carries `businessInfo.incorporatedOn`, which POST /customers requires.
 */
export function customerBody(record: Record<string, string>): Record<string, unknown> {
  const uma = nonEmpty(record.umaAddress);
  const address = compact({
    line1: nonEmpty(record.addressLine1),
    line2: nonEmpty(record.addressLine2),
    city: nonEmpty(record.city),
    state: nonEmpty(record.state),
    postalCode: nonEmpty(record.postalCode),
    country: nonEmpty(record.country),
  });
  const type = nonEmpty(record.customerType);
  return compact({
    customerType: type,
    platformCustomerId: nonEmpty(record.platformCustomerId),
    umaAddress: uma === undefined ? undefined : uma.startsWith('$') ? uma : `$${uma}`,
    ...(type === 'BUSINESS'
      ? {
          businessInfo: compact({
            legalName: nonEmpty(record.businessLegalName),
            country: nonEmpty(record.country),
            incorporatedOn: nonEmpty(record.businessIncorporatedOn),
            registrationNumber: nonEmpty(record.businessRegistrationNumber),
            taxId: nonEmpty(record.businessTaxId),
          }),
        }
      : { fullName: nonEmpty(record.fullName), birthDate: nonEmpty(record.birthDate), email: nonEmpty(record.email) }),
    address: Object.keys(address).length ? address : undefined,
  });
}
