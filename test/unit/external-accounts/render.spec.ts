import {
  CREATE_ACCOUNT_TYPES,
  exampleAccountInfo,
  isWalletType,
  renderAccountInfo,
} from '../../../src/external-accounts/variants/index.js';

type Info = Record<string, unknown>;

describe('renderAccountInfo', () => {
  it('USD_ACCOUNT gets every US rail the reference lists, full numbers and the beneficiary', () => {
    const stored: Info = { ...exampleAccountInfo('USD_ACCOUNT'), platformAccountId: 'ext_acc_123456' };
    const rendered = renderAccountInfo(stored);
    expect(rendered).toEqual({
      accountType: 'USD_ACCOUNT',
      paymentRails: ['ACH', 'ACH_SAME_DAY', 'WIRE', 'RTP', 'FEDNOW'],
      accountNumber: '12345678901',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: stored.beneficiary,
    });
    expect(rendered.beneficiary).not.toBe(stored.beneficiary);
  });

  it.each(CREATE_ACCOUNT_TYPES)('%s: bank types carry non-empty paymentRails, wallets none', (type) => {
    const rendered = renderAccountInfo(exampleAccountInfo(type));
    expect(rendered.accountType).toBe(type);
    if (isWalletType(type)) expect(rendered.paymentRails).toBeUndefined();
    else expect((rendered.paymentRails as string[]).length).toBeGreaterThan(0);
  });

  it.each([
    ['EUR_ACCOUNT', {}, ['SEPA', 'SEPA_INSTANT']],
    ['GBP_ACCOUNT', {}, ['FASTER_PAYMENTS']],
    ['MXN_ACCOUNT', {}, ['SPEI']],
    ['BRL_ACCOUNT', {}, ['PIX']],
    ['SWIFT_ACCOUNT', {}, ['SWIFT']],
    ['KES_ACCOUNT', {}, ['MOBILE_MONEY']],
    ['GHS_ACCOUNT', {}, ['BANK_TRANSFER']],
    ['GHS_ACCOUNT', { accountNumber: undefined, phoneNumber: '+233241234567' }, ['MOBILE_MONEY']],
    ['GHS_ACCOUNT', { phoneNumber: '+233241234567' }, ['BANK_TRANSFER', 'MOBILE_MONEY']],
    ['INR_ACCOUNT', {}, ['NEFT']],
    ['INR_ACCOUNT', { rail: undefined }, ['NEFT', 'RTGS']],
    ['INR_ACCOUNT', { accountNumber: undefined, ifsc: undefined, rail: undefined, vpa: 'jane@upi' }, ['UPI']],
  ] as [string, Info, string[]][])('%s %p -> %p', (type, patch, rails) => {
    expect(renderAccountInfo({ ...exampleAccountInfo(type), ...patch }).paymentRails).toEqual(rails);
  });

  it('keeps stored paymentRails', () => {
    const stored = { ...exampleAccountInfo('USD_ACCOUNT'), paymentRails: ['ACH'] };
    expect(renderAccountInfo(stored).paymentRails).toEqual(['ACH']);
  });

  it('renders the LIGHTNING_ACCOUNT alias as LIGHTNING', () => {
    const stored = { accountType: 'LIGHTNING_ACCOUNT', lightningAddress: 'jane@example.com' };
    expect(renderAccountInfo(stored)).toEqual({ accountType: 'LIGHTNING', lightningAddress: 'jane@example.com' });
  });

  it('wallets keep address, beneficiary and vaspName, drop nulls and platformAccountId', () => {
    const stored = {
      accountType: 'SOLANA_WALLET',
      address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg',
      vaspName: null,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane', countryOfResidence: 'US' },
      platformAccountId: 'wallet-1',
    };
    expect(renderAccountInfo(stored)).toEqual({
      accountType: 'SOLANA_WALLET',
      address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane', countryOfResidence: 'US' },
    });
  });

  it('drops internal members that are not part of the variant', () => {
    const stored = { ...exampleAccountInfo('EUR_ACCOUNT'), internalNote: 'x' };
    expect(renderAccountInfo(stored)).not.toHaveProperty('internalNote');
  });
});
