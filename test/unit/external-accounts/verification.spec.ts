import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { BusinessTime } from '../../../src/common/clock.js';
import {
  addBankingDays,
  initialBankValidation,
  SANDBOX_RETURNED_ACCOUNT_NUMBER,
  SANDBOX_SLOW_ACCOUNT_NUMBER,
} from '../../../src/external-accounts/bank-validation.js';
import { signatureVerifiable, verifyWalletSignature } from '../../../src/external-accounts/wallet-signatures.js';

const at = (iso: string) => new Date(iso) as BusinessTime;

describe('addBankingDays', () => {
  it('counts Monday to Friday only, keeping the time of day', () => {
    expect(addBankingDays(at('2026-11-23T10:00:00Z'), 2).toISOString()).toBe('2026-11-25T10:00:00.000Z'); // Mon -> Wed
    expect(addBankingDays(at('2026-11-26T10:00:00Z'), 2).toISOString()).toBe('2026-11-30T10:00:00.000Z'); // Thu -> Mon
    expect(addBankingDays(at('2026-11-27T23:59:00Z'), 2).toISOString()).toBe('2026-12-01T23:59:00.000Z'); // Fri -> Tue
    expect(addBankingDays(at('2026-11-28T08:00:00Z'), 2).toISOString()).toBe('2026-12-01T08:00:00.000Z'); // Sat -> Tue
  });
});

describe('initialBankValidation', () => {
  const now = at('2026-11-23T10:00:00Z');
  const info = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT', accountNumber });
  it('magic numbers wait out the window; other US numbers are ACTIVE at once; other types are not validated', () => {
    expect(initialBankValidation('USD_ACCOUNT', info(SANDBOX_SLOW_ACCOUNT_NUMBER), now, true)).toEqual({
      status: 'PENDING',
      bankValidation: 'VALIDATED',
      bankValidationDueAt: addBankingDays(now, 2),
    });
    expect(initialBankValidation('USD_ACCOUNT', info(SANDBOX_RETURNED_ACCOUNT_NUMBER), now, true)?.bankValidation).toBe(
      'RETURNED',
    );
    expect(initialBankValidation('USD_ACCOUNT', info('12345678901'), now, true)).toEqual({
      status: 'ACTIVE',
      bankValidation: 'VALIDATED',
      bankValidationDueAt: null,
    });
    expect(initialBankValidation('EUR_ACCOUNT', info(SANDBOX_SLOW_ACCOUNT_NUMBER), now, true)).toBeNull();
  });

  it('magic numbers exist only in sandbox: with SANDBOX=false they are numbers like any other', () => {
    for (const number of [SANDBOX_SLOW_ACCOUNT_NUMBER, SANDBOX_RETURNED_ACCOUNT_NUMBER])
      expect(initialBankValidation('USD_ACCOUNT', info(number), now, false)).toEqual({
        status: 'ACTIVE',
        bankValidation: 'VALIDATED',
        bankValidationDueAt: null,
      });
  });
});

describe('verifyWalletSignature', () => {
  const message = 'I verify that I control this wallet.\nNonce: 1';

  it('EVM: the signer verifies; another key, another message or garbage does not', async () => {
    const signer = privateKeyToAccount(generatePrivateKey());
    const signature = await signer.signMessage({ message });
    expect(await verifyWalletSignature('POLYGON_WALLET', signer.address, message, signature)).toBe(true);
    expect(await verifyWalletSignature('POLYGON_WALLET', signer.address.toLowerCase(), message, signature)).toBe(true);
    const other = privateKeyToAccount(generatePrivateKey());
    expect(await verifyWalletSignature('POLYGON_WALLET', other.address, message, signature)).toBe(false);
    expect(await verifyWalletSignature('POLYGON_WALLET', signer.address, `${message}.`, signature)).toBe(false);
    for (const junk of ['', '0x', '0x1234', 'zz', `${signature}00`])
      expect(await verifyWalletSignature('POLYGON_WALLET', signer.address, message, junk)).toBe(false);
  });

  it('Solana: Ed25519 over the message bytes, base58; garbage is false, never a throw', async () => {
    const secret = ed25519.utils.randomSecretKey();
    const address = base58.encode(ed25519.getPublicKey(secret));
    const signature = base58.encode(ed25519.sign(new TextEncoder().encode(message), secret));
    expect(await verifyWalletSignature('SOLANA_WALLET', address, message, signature)).toBe(true);
    expect(await verifyWalletSignature('SOLANA_WALLET', address, 'other', signature)).toBe(false);
    for (const junk of ['', '0OIl', '11111', signature.slice(1)])
      expect(await verifyWalletSignature('SOLANA_WALLET', address, message, junk)).toBe(false);
  });

  it('chains without a verifier here', () => {
    expect(['TRON_WALLET', 'SPARK_WALLET', 'LIGHTNING', 'USD_ACCOUNT'].map(signatureVerifiable)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
