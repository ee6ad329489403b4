/** Valid customer bodies (the reference's examples) with a fresh platformCustomerId each. */
let seq = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

export const individual = (overrides: Record<string, unknown> = {}) => ({
  customerType: 'INDIVIDUAL',
  platformCustomerId: unique('ind'),
  region: 'US',
  fullName: 'Jane Smith',
  birthDate: '1990-01-15',
  nationality: 'US',
  email: 'jane.smith@example.com',
  phoneNumber: '+14155551234',
  address: { line1: '123 Market Street', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
  ...overrides,
});

export const business = (overrides: Record<string, unknown> = {}) => ({
  customerType: 'BUSINESS',
  platformCustomerId: unique('biz'),
  region: 'US',
  email: 'finance@acme.com',
  phoneNumber: '+14155559876',
  businessInfo: {
    legalName: 'Acme Corporation',
    doingBusinessAs: 'Acme',
    country: 'US',
    registrationNumber: '5523041',
    incorporatedOn: '2018-03-14',
    entityType: 'LLC',
    taxId: '47-1234567',
    countriesOfOperation: ['US'],
    businessType: 'INFORMATION',
    purposeOfAccount: 'CONTRACTOR_PAYOUTS',
    sourceOfFunds: 'Funds derived from customer payments for software services',
    expectedMonthlyTransactionCount: 'COUNT_100_TO_500',
    expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M',
    expectedRecipientJurisdictions: ['US', 'MX'],
  },
  address: {
    line1: '123 Market Street',
    line2: 'Suite 400',
    city: 'Seattle',
    state: 'WA',
    postalCode: '98101',
    country: 'US',
  },
  ...overrides,
});
