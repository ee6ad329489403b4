import type { FieldError } from '../../../src/errors/field-error.js';
import {
  CREATE_ACCOUNT_TYPES,
  exampleAccountInfo,
  ISO_4217_CURRENCIES,
  validateAccountInfo,
} from '../../../src/external-accounts/variants/index.js';

type Info = Record<string, unknown>;

const usd = (): Info => exampleAccountInfo('USD_ACCOUNT');
const withBeneficiary = (info: Info, patch: Info): Info => ({
  ...info,
  beneficiary: { ...(info.beneficiary as Info), ...patch },
});
const fields = (errors: FieldError[]) => errors.map((e) => e.field);

/** Validates and expects exactly one error, returning it. */
function only(value: unknown, opts: { currency?: string; path?: string } = {}): FieldError {
  const errors = validateAccountInfo(value, opts);
  expect(errors).toHaveLength(1);
  return errors[0];
}

describe('accountInfo itself', () => {
  it('is required', () => {
    expect(only(undefined)).toEqual({ field: 'accountInfo', message: 'accountInfo is required' });
    expect(only(null).field).toBe('accountInfo');
  });

  it.each([['a string'], [42], [[{ accountType: 'USD_ACCOUNT' }]], [true]])('must be an object (%p)', (value) => {
    const error = only(value);
    expect(error.field).toBe('accountInfo');
    expect(error.message).toMatch(/must be an object, got (string|number|array|boolean)/);
  });

  it('uses the caller path prefix', () => {
    expect(only({ accountType: 'NOPE' }, { path: 'body.accountInfo' }).field).toBe('body.accountInfo.accountType');
  });
});

describe('accountType', () => {
  it('is required, with the allowed list', () => {
    const error = only({ address: 'x' });
    expect(error.field).toBe('accountInfo.accountType');
    expect(error.constraint?.enum).toEqual([...CREATE_ACCOUNT_TYPES]);
    expect(error.message).toMatch(/required/);
  });

  it.each(['NOPE', 'usd_account', 'LIGHTNING_ACCOUNT'])('rejects %s with the allowed list', (accountType) => {
    const error = only({ accountType });
    expect(error.field).toBe('accountInfo.accountType');
    expect(error.constraint?.enum).toEqual([...CREATE_ACCOUNT_TYPES]);
  });

  it('rejects a non-string type', () => {
    const error = only({ accountType: 7 });
    expect(error.field).toBe('accountInfo.accountType');
    expect(error.message).toMatch(/must be a string, got number/);
  });
});

describe('field rules', () => {
  it('missing required member', () => {
    const { routingNumber: _dropped, ...info } = usd();
    expect(only(info)).toEqual({ field: 'accountInfo.routingNumber', message: 'routingNumber is required' });
  });

  it('missing required enum member carries the enum', () => {
    const { bankAccountType: _dropped, ...info } = usd();
    expect(only(info)).toMatchObject({
      field: 'accountInfo.bankAccountType',
      constraint: { enum: ['CHECKING', 'SAVINGS'] },
    });
  });

  it('blank required member', () => {
    expect(only({ ...usd(), accountNumber: '   ' })).toMatchObject({
      field: 'accountInfo.accountNumber',
      constraint: { minLength: 1 },
    });
  });

  it('pattern', () => {
    expect(only({ ...usd(), routingNumber: '12345678X' })).toEqual({
      field: 'accountInfo.routingNumber',
      constraint: { pattern: '^[0-9]{9}$' },
      message: 'routingNumber must match ^[0-9]{9}$',
    });
  });

  it('minLength', () => {
    expect(only({ ...usd(), routingNumber: '12345678' })).toMatchObject({
      field: 'accountInfo.routingNumber',
      constraint: { minLength: 9 },
    });
  });

  it('maxLength', () => {
    expect(only({ ...usd(), accountNumber: '1'.repeat(35) })).toMatchObject({
      field: 'accountInfo.accountNumber',
      constraint: { maxLength: 34 },
      message: 'accountNumber must be at most 34 characters',
    });
  });

  it('enum', () => {
    expect(only({ ...usd(), bankAccountType: 'BROKERAGE' })).toEqual({
      field: 'accountInfo.bankAccountType',
      constraint: { enum: ['CHECKING', 'SAVINGS'] },
      message: 'bankAccountType must be one of: CHECKING, SAVINGS',
    });
  });

  it('unknown member, at any depth', () => {
    const info = withBeneficiary({ ...usd(), iban: 'DE89370400440532013000' }, { nickname: 'JD' });
    const errors = validateAccountInfo(info);
    expect(fields(errors)).toEqual(['accountInfo.iban', 'accountInfo.beneficiary.nickname']);
    expect(errors.every((e) => /unknown field/.test(e.message ?? ''))).toBe(true);
  });

  it('does not mistake Object.prototype names for members', () => {
    expect(fields(validateAccountInfo({ ...usd(), constructor: 'x', toString: 'y' }))).toEqual([
      'accountInfo.constructor',
      'accountInfo.toString',
    ]);
  });

  it.each([
    [123456789, 'number'],
    [true, 'boolean'],
    [['021000021'], 'array'],
    [{ value: '021000021' }, 'object'],
  ])('wrong JS type %p', (routingNumber, typeName) => {
    expect(only({ ...usd(), routingNumber })).toEqual({
      field: 'accountInfo.routingNumber',
      message: `routingNumber must be a string, got ${typeName}`,
    });
  });

  it('wrong type for a nested object', () => {
    expect(only(withBeneficiary(usd(), { address: '1 Main St' }))).toMatchObject({
      field: 'accountInfo.beneficiary.address',
      message: 'address must be an object, got string',
    });
  });

  it('null is treated as absent', () => {
    expect(validateAccountInfo({ ...usd(), bankName: null })).toEqual([]);
    expect(fields(validateAccountInfo({ ...usd(), accountNumber: null }))).toEqual(['accountInfo.accountNumber']);
  });
});

describe('dates and countries', () => {
  it.each(['1990-02-30', '2023-13-01', '1990-00-10', '2021-02-29'])('bad calendar date %s', (birthDate) => {
    expect(only(withBeneficiary(usd(), { birthDate }))).toMatchObject({
      field: 'accountInfo.beneficiary.birthDate',
      constraint: { format: 'date' },
      message: 'birthDate is not a real calendar date',
    });
  });

  it.each(['15/01/1990', '1990-1-15', '19900115', '1990-01-15T00:00:00Z'])('bad date shape %s', (birthDate) => {
    expect(only(withBeneficiary(usd(), { birthDate }))).toMatchObject({
      field: 'accountInfo.beneficiary.birthDate',
      constraint: { format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    });
  });

  it('accepts a leap day and rejects a birth date in the future', () => {
    expect(validateAccountInfo(withBeneficiary(usd(), { birthDate: '2000-02-29' }))).toEqual([]);
    expect(only(withBeneficiary(usd(), { birthDate: '2999-01-01' })).message).toMatch(/future/);
  });

  it.each([
    ['nationality', 'USA'],
    ['nationality', 'us'],
    ['countryOfResidence', 'XX'],
  ])('bad country in %s: %s', (member, value) => {
    expect(only(withBeneficiary(usd(), { [member]: value }))).toMatchObject({
      field: `accountInfo.beneficiary.${member}`,
      constraint: { format: 'iso3166-1-alpha-2' },
    });
  });

  it('bad country in the nested address', () => {
    const beneficiary = (usd().beneficiary as Info) ?? {};
    const address = { ...(beneficiary.address as Info), country: 'ZZ' };
    expect(only(withBeneficiary(usd(), { address }))).toMatchObject({
      field: 'accountInfo.beneficiary.address.country',
      constraint: { format: 'iso3166-1-alpha-2', pattern: '^[A-Z]{2}$' },
      message: 'country is not an assigned ISO 3166-1 alpha-2 code',
    });
  });
});

describe('beneficiary variants', () => {
  it('is required on bank types', () => {
    const { beneficiary: _dropped, ...info } = usd();
    expect(only(info)).toEqual({ field: 'accountInfo.beneficiary', message: 'beneficiary is required' });
  });

  it('needs a known beneficiaryType', () => {
    expect(only(withBeneficiary(usd(), { beneficiaryType: 'TRUST' }))).toMatchObject({
      field: 'accountInfo.beneficiary.beneficiaryType',
      constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
    });
    const { beneficiaryType: _dropped, ...rest } = usd().beneficiary as Info;
    expect(only({ ...usd(), beneficiary: rest })).toMatchObject({
      field: 'accountInfo.beneficiary.beneficiaryType',
      constraint: { enum: ['INDIVIDUAL', 'BUSINESS'] },
    });
  });

  it('checks a BUSINESS beneficiary against the business shape', () => {
    const info = { ...usd(), beneficiary: { beneficiaryType: 'BUSINESS', fullName: 'Acme' } };
    expect(fields(validateAccountInfo(info))).toEqual([
      'accountInfo.beneficiary.fullName',
      'accountInfo.beneficiary.legalName',
    ]);
  });

  it('applies per-currency requirements (EUR business needs registration, tax id, residence)', () => {
    const info = { ...exampleAccountInfo('EUR_ACCOUNT'), beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'A' } };
    expect(fields(validateAccountInfo(info))).toEqual([
      'accountInfo.beneficiary.registrationNumber',
      'accountInfo.beneficiary.taxId',
      'accountInfo.beneficiary.countryOfResidence',
    ]);
    const usdBusiness = { ...usd(), beneficiary: { beneficiaryType: 'BUSINESS', legalName: 'A' } };
    expect(validateAccountInfo(usdBusiness)).toEqual([]);
  });

  it('applies per-currency individual requirements (JMD needs address and phone)', () => {
    const info = {
      ...exampleAccountInfo('JMD_ACCOUNT'),
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane' },
    };
    expect(fields(validateAccountInfo(info))).toEqual([
      'accountInfo.beneficiary.phoneNumber',
      'accountInfo.beneficiary.address',
    ]);
  });

  it('wallet beneficiaries are optional and use the wallet shape', () => {
    const eth = exampleAccountInfo('ETHEREUM_WALLET');
    expect(validateAccountInfo(eth)).toEqual([]);
    const withPerson = {
      ...eth,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane', birthDate: '1990-01-01' },
    };
    expect(fields(validateAccountInfo(withPerson))).toEqual([
      'accountInfo.beneficiary.birthDate',
      'accountInfo.beneficiary.countryOfResidence',
    ]);
  });
});

describe('cross-field rules', () => {
  it('mixed corridors need bank or mobile-money members', () => {
    const error = only({ ...exampleAccountInfo('GHS_ACCOUNT'), accountNumber: undefined });
    expect(error.field).toBe('accountInfo.accountNumber');
    expect(error.message).toMatch(/accountNumber or phoneNumber is required/);
    expect(
      validateAccountInfo({
        ...exampleAccountInfo('GHS_ACCOUNT'),
        accountNumber: undefined,
        phoneNumber: '+233241234567',
      }),
    ).toEqual([]);
  });

  it('SWIFT needs accountNumber or iban', () => {
    const { accountNumber: _dropped, ...info } = exampleAccountInfo('SWIFT_ACCOUNT');
    expect(only(info).field).toBe('accountInfo.accountNumber');
    expect(validateAccountInfo({ ...info, iban: 'GB29NWBK60161331926819' })).toEqual([]);
  });

  it('LIGHTNING takes exactly one of invoice, bolt12, lightningAddress', () => {
    expect(only({ accountType: 'LIGHTNING' }).message).toMatch(/invoice or bolt12 or lightningAddress is required/);
    const both = { accountType: 'LIGHTNING', lightningAddress: 'a@b.example', bolt12: 'lno1qcp4256ypq' };
    expect(only(both)).toMatchObject({
      field: 'accountInfo.lightningAddress',
      message: expect.stringMatching(/only one/),
    });
  });
});

describe('wallet address formats', () => {
  const cases: [string, string, boolean][] = [
    ['BASE_WALLET', '0x52908400098527886E0F7030069857D2E4169EE7', true],
    ['ETHEREUM_WALLET', '0xde709f2102306220921060314715629080e2fb77', true],
    ['POLYGON_WALLET', '0x52908400098527886E0F7030069857D2E4169EE', false],
    ['PLASMA_WALLET', '52908400098527886E0F7030069857D2E4169EE7aa', false],
    ['ARBITRUM_WALLET', '0xZZ908400098527886E0F7030069857D2E4169EE7', false],
    ['SOLANA_WALLET', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', true],
    ['SOLANA_WALLET', '0OIl' + 'A'.repeat(40), false],
    ['SOLANA_WALLET', 'abc', false],
    ['TRON_WALLET', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', true],
    ['TRON_WALLET', 'ALa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', false],
    ['TRON_WALLET', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU', false],
    ['SPARK_WALLET', 'SPARK1PGSSYUUUHNRRDJSWAL5C3S3RAFW9W3Y5DD4CJY3DUXLF7HJZKP0RQX6DJ6MRHU', true],
    ['SPARK_WALLET', 'sparkrt1pgss8ter0fhc4c220f3zftmpz49h8wqte8eg3m5zkrraplgc', true],
    ['SPARK_WALLET', 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrbo', false],
    ['SPARK_WALLET', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', false],
    ['SPARK_WALLET', 'Spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu', false],
  ];
  it.each(cases)('%s %s -> valid=%p', (accountType, address, valid) => {
    const errors = validateAccountInfo({ accountType, address });
    expect(errors.length === 0).toBe(valid);
    if (!valid) expect(errors[0]?.field).toBe('accountInfo.address');
  });

  it.each([
    [
      'invoice',
      'lntb20m1pvjluezhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqsfpp3x9et2e20v6pu37c5d9vax37wxq72un98',
      true,
    ],
    ['invoice', 'lnbc1notbech32b', false],
    ['invoice', 'john@example.com', false],
    ['bolt12', 'lno1qcp4256ypqpq86q2pucnq42ngssx2an9wfujqerp0y2pqun4wd68jtn00fkxzcnn9ehhyec', true],
    ['lightningAddress', 'satoshi@walletofsatoshi.com', true],
    ['lightningAddress', 'not-an-address', false],
  ])('LIGHTNING %s %s -> valid=%p', (member, value, valid) => {
    const errors = validateAccountInfo({ accountType: 'LIGHTNING', [member]: value });
    expect(errors.length === 0).toBe(valid);
    if (!valid) expect(errors[0]?.field).toBe(`accountInfo.${member}`);
  });
});

describe('currency consistency', () => {
  it('a fixed-currency bank type must match', () => {
    expect(only(usd(), { currency: 'EUR' })).toEqual({
      field: 'currency',
      constraint: { enum: ['USD'] },
      message: 'currency must be USD for USD_ACCOUNT',
    });
    expect(only(exampleAccountInfo('EUR_ACCOUNT'), { currency: 'eur' }).constraint?.enum).toEqual(['EUR']);
  });

  it('SLV_ACCOUNT is a US dollar account', () => {
    expect(validateAccountInfo(exampleAccountInfo('SLV_ACCOUNT'), { currency: 'USD' })).toEqual([]);
    expect(only(exampleAccountInfo('SLV_ACCOUNT'), { currency: 'SVC' }).constraint?.enum).toEqual(['USD']);
  });

  it('SWIFT_ACCOUNT takes any ISO 4217 currency', () => {
    for (const currency of ['USD', 'EUR', 'NGN', 'JPY'])
      expect(validateAccountInfo(exampleAccountInfo('SWIFT_ACCOUNT'), { currency })).toEqual([]);
    const error = only(exampleAccountInfo('SWIFT_ACCOUNT'), { currency: 'BTC' });
    expect(error.field).toBe('currency');
    expect(error.constraint?.enum).toEqual([...ISO_4217_CURRENCIES]);
  });

  it('wallets take their chain assets', () => {
    expect(validateAccountInfo(exampleAccountInfo('TRON_WALLET'), { currency: 'USDT' })).toEqual([]);
    expect(validateAccountInfo(exampleAccountInfo('SOLANA_WALLET'), { currency: 'SOL' })).toEqual([]);
    expect(validateAccountInfo(exampleAccountInfo('SPARK_WALLET'), { currency: 'BTC' })).toEqual([]);
    expect(only(exampleAccountInfo('TRON_WALLET'), { currency: 'USDC' })).toMatchObject({
      field: 'currency',
      constraint: { enum: ['USDT', 'TRX'] },
    });
    expect(only(exampleAccountInfo('LIGHTNING'), { currency: 'USD' }).constraint?.enum).toEqual(['BTC']);
  });

  it('is skipped when the account type is unknown (that error is enough)', () => {
    expect(fields(validateAccountInfo({ accountType: 'NOPE' }, { currency: 'USD' }))).toEqual([
      'accountInfo.accountType',
    ]);
  });
});

describe('aggregation', () => {
  it('reports every invalid field in one call, one error per field', () => {
    const info = {
      ...usd(),
      routingNumber: '12',
      bankAccountType: 'BROKERAGE',
      accountNumber: 123,
      color: 'blue',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        birthDate: '1990-02-30',
        nationality: 'XX',
        address: { line1: '1 Main St', postalCode: '10001', country: 'usa', planet: 'Earth' },
      },
    };
    const errors = validateAccountInfo(info, { currency: 'GBP' });
    expect(fields(errors).sort()).toEqual(
      [
        'accountInfo.color',
        'accountInfo.accountNumber',
        'accountInfo.routingNumber',
        'accountInfo.bankAccountType',
        'accountInfo.beneficiary.fullName',
        'accountInfo.beneficiary.birthDate',
        'accountInfo.beneficiary.nationality',
        'accountInfo.beneficiary.address.planet',
        'accountInfo.beneficiary.address.country',
        'currency',
      ].sort(),
    );
    expect(new Set(fields(errors)).size).toBe(errors.length);
    expect(errors.every((e) => typeof e.message === 'string' && e.message.length > 0)).toBe(true);
  });

  it('never throws on hostile input', () => {
    const cyclic: Info = { accountType: 'USD_ACCOUNT' };
    cyclic.beneficiary = cyclic;
    const hostile: unknown[] = [cyclic, Object.create(null), { accountType: 'USD_ACCOUNT', beneficiary: [] }, 0, ''];
    for (const value of hostile) expect(() => validateAccountInfo(value)).not.toThrow();
  });
});
