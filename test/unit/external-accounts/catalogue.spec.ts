import {
  accountIdentity,
  CREATE_ACCOUNT_TYPES,
  currenciesFor,
  exampleAccountInfo,
  exampleCurrency,
  initialBeneficiaryVerificationStatus,
  isBankType,
  isSelfCustodyWallet,
  isWalletType,
  validateAccountInfo,
} from '../../../src/external-accounts/variants/index.js';

const BANK_TYPES = [
  'AED_ACCOUNT', 'BDT_ACCOUNT', 'BRL_ACCOUNT', 'BWP_ACCOUNT', 'CAD_ACCOUNT', 'CNY_ACCOUNT', 'COP_ACCOUNT',
  'DKK_ACCOUNT', 'EGP_ACCOUNT', 'EUR_ACCOUNT', 'GBP_ACCOUNT', 'GHS_ACCOUNT', 'GTQ_ACCOUNT', 'HKD_ACCOUNT',
  'HTG_ACCOUNT', 'IDR_ACCOUNT', 'INR_ACCOUNT', 'JMD_ACCOUNT', 'KES_ACCOUNT', 'MWK_ACCOUNT', 'MXN_ACCOUNT',
  'MYR_ACCOUNT', 'NGN_ACCOUNT', 'PHP_ACCOUNT', 'PKR_ACCOUNT', 'RWF_ACCOUNT', 'SGD_ACCOUNT', 'SLV_ACCOUNT',
  'THB_ACCOUNT', 'TZS_ACCOUNT', 'UGX_ACCOUNT', 'USD_ACCOUNT', 'VND_ACCOUNT', 'XAF_ACCOUNT', 'XOF_ACCOUNT',
  'ZAR_ACCOUNT', 'ZMW_ACCOUNT', 'ILS_ACCOUNT', 'TRY_ACCOUNT', 'SWIFT_ACCOUNT',
]; // prettier-ignore
const WALLET_TYPES = [
  'BASE_WALLET', 'ETHEREUM_WALLET', 'LIGHTNING', 'POLYGON_WALLET', 'PLASMA_WALLET', 'ARBITRUM_WALLET',
  'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET',
]; // prettier-ignore

describe('CREATE_ACCOUNT_TYPES', () => {
  it('is exactly the spec list: 40 bank types then 9 wallet types', () => {
    expect(CREATE_ACCOUNT_TYPES).toEqual([...BANK_TYPES, ...WALLET_TYPES]);
    expect(CREATE_ACCOUNT_TYPES).toHaveLength(49);
  });

  it('does not offer the response-only LIGHTNING_ACCOUNT alias for creation', () => {
    expect(CREATE_ACCOUNT_TYPES).not.toContain('LIGHTNING_ACCOUNT');
  });
});

describe('generated examples', () => {
  it.each(CREATE_ACCOUNT_TYPES)('%s: the example validates clean in its example currency', (type) => {
    const info = exampleAccountInfo(type);
    expect(info.accountType).toBe(type);
    expect(validateAccountInfo(info, { currency: exampleCurrency(type) })).toEqual([]);
  });

  it.each(CREATE_ACCOUNT_TYPES)('%s: seeded examples stay valid and have distinct identities', (type) => {
    const identities = new Set<string>();
    for (const seed of [0, 1, 2, 987654]) {
      const info = exampleAccountInfo(type, seed);
      expect(validateAccountInfo(info, { currency: exampleCurrency(type) })).toEqual([]);
      identities.add(accountIdentity(info));
    }
    expect(identities.size).toBe(4);
  });

  it('bank examples carry a beneficiary, wallet examples do not need one', () => {
    for (const type of BANK_TYPES) expect(exampleAccountInfo(type).beneficiary).toBeDefined();
    for (const type of WALLET_TYPES) expect(exampleAccountInfo(type).beneficiary).toBeUndefined();
  });

  it('returns a fresh copy each time', () => {
    const a = exampleAccountInfo('USD_ACCOUNT');
    (a.beneficiary as Record<string, unknown>).fullName = 'Changed';
    expect((exampleAccountInfo('USD_ACCOUNT').beneficiary as Record<string, unknown>).fullName).toBe('Jane Doe');
  });

  it('throws for an unknown type (a caller bug, not user input)', () => {
    expect(() => exampleAccountInfo('NOPE')).toThrow(/unknown accountType/);
    expect(() => exampleCurrency('NOPE')).toThrow(/unknown accountType/);
  });
});

describe('type helpers', () => {
  it('classifies wallets and banks, resolving the LIGHTNING_ACCOUNT alias', () => {
    for (const type of WALLET_TYPES) expect([isWalletType(type), isBankType(type)]).toEqual([true, false]);
    for (const type of BANK_TYPES) expect([isWalletType(type), isBankType(type)]).toEqual([false, true]);
    expect(isWalletType('LIGHTNING_ACCOUNT')).toBe(true);
    expect(isWalletType('NOPE')).toBe(false);
  });

  it('treats wallets as self-custody unless a VASP custodies them', () => {
    for (const type of WALLET_TYPES) expect(isSelfCustodyWallet(type)).toBe(true);
    expect(isSelfCustodyWallet('ETHEREUM_WALLET', { vaspName: 'Kraken' })).toBe(false);
    expect(isSelfCustodyWallet('ETHEREUM_WALLET', { vaspName: '  ' })).toBe(true);
    expect(isSelfCustodyWallet('USD_ACCOUNT')).toBe(false);
  });

  it('knows the currencies of each type', () => {
    expect(currenciesFor('USD_ACCOUNT')).toEqual(['USD']);
    expect(currenciesFor('EUR_ACCOUNT')).toEqual(['EUR']);
    expect(currenciesFor('SLV_ACCOUNT')).toEqual(['USD']);
    expect(currenciesFor('SWIFT_ACCOUNT')).toBe('ANY_ISO4217');
    expect(currenciesFor('SPARK_WALLET')).toContain('BTC');
    expect(currenciesFor('TRON_WALLET')).toContain('USDT');
    expect(currenciesFor('BASE_WALLET')).toContain('USDC');
    expect(currenciesFor('LIGHTNING_ACCOUNT')).toEqual(['BTC']);
    expect(currenciesFor('NOPE')).toEqual([]);
    for (const type of BANK_TYPES.filter((t) => !['SLV_ACCOUNT', 'SWIFT_ACCOUNT'].includes(t)))
      expect(currenciesFor(type)).toEqual([type.slice(0, 3)]);
  });

  it('starts beneficiary verification per rail', () => {
    expect(initialBeneficiaryVerificationStatus('USD_ACCOUNT')).toBe('CHECKED_BY_RECEIVING_FI');
    expect(initialBeneficiaryVerificationStatus('EUR_ACCOUNT')).toBe('PENDING');
    expect(initialBeneficiaryVerificationStatus('GBP_ACCOUNT')).toBe('PENDING');
    expect(initialBeneficiaryVerificationStatus('MXN_ACCOUNT')).toBe('UNSUPPORTED');
    for (const type of WALLET_TYPES) expect(initialBeneficiaryVerificationStatus(type)).toBe('UNSUPPORTED');
  });
});
