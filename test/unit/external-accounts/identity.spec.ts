import { accountIdentity, exampleAccountInfo } from '../../../src/external-accounts/variants/index.js';

type Info = Record<string, unknown>;
const same = (a: Info, b: Info) => expect(accountIdentity(a)).toBe(accountIdentity(b));
const differ = (a: Info, b: Info) => expect(accountIdentity(a)).not.toBe(accountIdentity(b));

describe('accountIdentity', () => {
  it('is the account type plus normalised identifying members', () => {
    expect(accountIdentity(exampleAccountInfo('USD_ACCOUNT'))).toBe(
      'USD_ACCOUNT|routingNumber=021000021|accountNumber=12345678901',
    );
    expect(accountIdentity(exampleAccountInfo('EUR_ACCOUNT'))).toBe('EUR_ACCOUNT|iban=DE89370400440532013000');
  });

  it('US routing and account numbers: digits only', () => {
    const usd = exampleAccountInfo('USD_ACCOUNT');
    same(usd, { ...usd, routingNumber: '0210-0002 1', accountNumber: ' 1234-5678-901 ' });
    differ(usd, { ...usd, accountNumber: '12345678902' });
    differ(usd, { ...usd, routingNumber: '026009593' });
  });

  it('ignores non-identifying members (beneficiary, bank name, platformAccountId)', () => {
    const usd = exampleAccountInfo('USD_ACCOUNT');
    same(usd, { ...usd, bankName: 'Other', platformAccountId: 'p-1', beneficiary: { beneficiaryType: 'BUSINESS' } });
  });

  it('IBAN: spaces removed, upper-cased', () => {
    const eur = exampleAccountInfo('EUR_ACCOUNT');
    same(eur, { ...eur, iban: 'de89 3704 0044 0532 0130 00' });
    same(eur, { ...eur, iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX' });
    differ(eur, { ...eur, iban: 'DE89370400440532013001' });
  });

  it('SWIFT/BIC: upper-cased, primary-office XXX dropped', () => {
    const swift = exampleAccountInfo('SWIFT_ACCOUNT');
    same(swift, { ...swift, swiftCode: 'deutdeffxxx' });
    differ(swift, { ...swift, swiftCode: 'DEUTDEFF500' });
  });

  it('EVM addresses: checksum case does not matter', () => {
    const base = { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' };
    same(base, { ...base, address: '0x52908400098527886e0f7030069857d2e4169ee7' });
    same(base, { ...base, address: ' 0x52908400098527886E0F7030069857D2E4169EE7 ' });
    differ(base, { ...base, accountType: 'ETHEREUM_WALLET' });
  });

  it('bech32 (Spark) is case-insensitive, base58 (Solana, Tron) is not', () => {
    const spark = exampleAccountInfo('SPARK_WALLET');
    same(spark, { ...spark, address: String(spark.address).toUpperCase() });
    const sol = exampleAccountInfo('SOLANA_WALLET');
    differ(sol, { ...sol, address: String(sol.address).toLowerCase() });
    const tron = exampleAccountInfo('TRON_WALLET');
    same(tron, { ...tron, address: ` ${String(tron.address)}` });
  });

  it('LIGHTNING and LIGHTNING_ACCOUNT are the same account; lightning values are lower-cased', () => {
    const ln = { accountType: 'LIGHTNING', lightningAddress: 'Satoshi@WalletOfSatoshi.com' };
    same(ln, { accountType: 'LIGHTNING_ACCOUNT', lightningAddress: 'satoshi@walletofsatoshi.com' });
    const invoice = 'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3sdqsvfhkcap3xyhx7un8';
    same({ accountType: 'LIGHTNING', invoice }, { accountType: 'LIGHTNING', invoice: invoice.toUpperCase() });
    expect(accountIdentity(ln).startsWith('LIGHTNING|')).toBe(true);
  });

  it('mobile money: provider name case and phone formatting do not matter', () => {
    const kes = exampleAccountInfo('KES_ACCOUNT');
    same(kes, { ...kes, provider: '  EXAMPLE   provider ', phoneNumber: '+254 712 345 678' });
    differ(kes, { ...kes, provider: 'Other Provider' });
  });

  it('PIX keys: e-mail case and CPF punctuation do not matter', () => {
    const brl = exampleAccountInfo('BRL_ACCOUNT');
    same(brl, { ...brl, pixKey: 'Jane.Doe@Example.com' });
    same({ ...brl, pixKeyType: 'CPF', pixKey: '111.444.777-35' }, { ...brl, pixKeyType: 'CPF', pixKey: '11144477735' });
  });

  it('keeps members apart so values cannot run together', () => {
    const gbp = exampleAccountInfo('GBP_ACCOUNT');
    differ(gbp, { ...gbp, sortCode: '123451', accountNumber: '23456781' });
  });

  it('is stable for unknown types', () => {
    expect(accountIdentity({ accountType: 'NOPE', b: 1, a: '2' })).toBe(
      accountIdentity({ a: '2', b: 1, accountType: 'NOPE' }),
    );
  });
});
