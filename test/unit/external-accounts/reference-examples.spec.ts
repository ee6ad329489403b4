import {
  CREATE_ACCOUNT_TYPES,
  exampleAccountInfo,
  renderAccountInfo,
  validateAccountInfo,
} from '../../../src/external-accounts/variants/index.js';
import {
  REFERENCE_ACCOUNT_PART_EXAMPLES,
  REFERENCE_CREATE_EXAMPLES,
  REFERENCE_WALLET_EXAMPLES,
} from './reference-examples.js';

/** The spec's own examples (POST /platform/external-accounts section). */
const SPEC_USD_EXAMPLE = {
  accountType: 'USD_ACCOUNT',
  accountNumber: '12345678901',
  routingNumber: '123456789',
  bankAccountType: 'CHECKING',
  bankName: 'Chase Bank',
  platformAccountId: 'ext_acc_123456',
  beneficiary: {
    beneficiaryType: 'INDIVIDUAL',
    fullName: 'John Doe',
    birthDate: '1990-01-15',
    nationality: 'US',
    address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
  },
};
const SPEC_SPARK_EXAMPLE = {
  accountType: 'SPARK_WALLET',
  address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
};

describe('spec examples', () => {
  it('USD_ACCOUNT validates in USD', () => {
    expect(validateAccountInfo(SPEC_USD_EXAMPLE, { currency: 'USD' })).toEqual([]);
  });

  it('SPARK_WALLET validates in BTC', () => {
    expect(validateAccountInfo(SPEC_SPARK_EXAMPLE, { currency: 'BTC' })).toEqual([]);
  });
});

describe('reference examples', () => {
  it.each(REFERENCE_CREATE_EXAMPLES.map((e) => [e.name, e] as const))('%s', (_name, example) => {
    expect(validateAccountInfo(example.accountInfo, { currency: example.currency })).toEqual([]);
  });

  it.each(REFERENCE_ACCOUNT_PART_EXAMPLES.map((e) => [e.name, e] as const))(
    '%s (with an example beneficiary)',
    (_name, example) => {
      const type = String(example.accountInfo.accountType);
      const beneficiary = exampleAccountInfo(type).beneficiary;
      expect(validateAccountInfo({ ...example.accountInfo, beneficiary })).toEqual([]);
    },
  );

  it.each(REFERENCE_WALLET_EXAMPLES.map((e) => [e.name, e] as const))('%s', (_name, example) => {
    expect(validateAccountInfo(example.accountInfo)).toEqual([]);
  });

  it('covers every create type the reference has an example for (CAD_ACCOUNT has none)', () => {
    const covered = new Set(
      [...REFERENCE_CREATE_EXAMPLES, ...REFERENCE_ACCOUNT_PART_EXAMPLES, ...REFERENCE_WALLET_EXAMPLES].map(
        (e) => e.accountInfo.accountType,
      ),
    );
    expect(CREATE_ACCOUNT_TYPES.filter((t) => !covered.has(t))).toEqual(['CAD_ACCOUNT']);
  });

  it('renders the webhook example back unchanged (full address, no masking)', () => {
    const webhook = REFERENCE_WALLET_EXAMPLES.find((e) => e.name.includes('verificationSucceeded'));
    expect(webhook).toBeDefined();
    expect(renderAccountInfo(webhook!.accountInfo)).toEqual(webhook!.accountInfo);
  });
});
