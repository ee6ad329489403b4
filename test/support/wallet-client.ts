import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { encryptOtpCodeToBundle, generateP256KeyPair, verifyOtpVerificationToken } from '@turnkey/crypto';
import { V, type TestPlatform } from './test-app.js';

/**
 * What a platform's front end does for an embedded wallet, built on the libraries it would use:
 * `@turnkey/crypto` (P-256 key pairs, `encryptOtpCodeToBundle`, `verifyOtpVerificationToken`) and
 * `@turnkey/api-key-stamper` (the API-key stamp sent as `Service-Wallet-Signature`). The enclave
 * key is pinned from `GET /auth/enclave-key` and passed as the library's signer-key override.
 */
export interface WalletKey {
  /** Compressed P-256 public key, hex (the session key the server knows). */
  publicKey: string;
  privateKey: string;
}

export function newWalletKey(): WalletKey {
  const pair = generateP256KeyPair();
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/** The API-key stamp over `payload` (base64url JSON {publicKey, scheme, signature}), as the header value. */
export async function stamp(key: WalletKey, payload: string): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (await stamper.stamp(payload)).stampHeaderValue;
}

/** The deployment's enclave signing key, as a client pins it. */
export async function enclaveKey(p: TestPlatform): Promise<string> {
  const res = await p.t.http.get(`${V}/auth/enclave-key`);
  if (res.status !== 200) throw new Error(`enclave key: ${res.status}`);
  return (res.body as { enclaveQuorumPublic: string }).enclaveQuorumPublic;
}

/** `encryptOtpCodeToBundle` against the pinned enclave key: the `encryptedOtpBundle` of a verify call. */
export async function sealOtp(p: TestPlatform, code: string, targetBundle: string, key: WalletKey): Promise<string> {
  return encryptOtpCodeToBundle(code, targetBundle, key.publicKey, await enclaveKey(p));
}

/** A signed retry's headers (`header` picks the spec's name or the reference's). */
export function signedHeaders(
  signature: string,
  requestId: string,
  header: 'Service-Wallet-Signature' | 'Grid-Wallet-Signature' = 'Service-Wallet-Signature',
): Record<string, string> {
  return { [header]: signature, 'Request-Id': requestId };
}

export interface WalletSession {
  id: string;
  accountId: string;
  type: string;
  expiresAt: string;
  key: WalletKey;
}

/** Sends a request with extra headers (the TestPlatform helpers send none). */
export function send(
  p: TestPlatform,
  method: 'post' | 'delete' | 'patch',
  path: string,
  body: object | undefined,
  headers: Record<string, string> = {},
) {
  let r = p.t.http[method](`${V}${path}`).set('Authorization', p.authorization);
  for (const [name, value] of Object.entries(headers)) r = r.set(name, value);
  return body === undefined ? r : r.send(body);
}

/**
 * The OTP login with real HPKE: challenge (a code goes out), seal `{otp_code, public_key}` to the
 * target bundle, verify (202 with the verification token), check the token against the pinned
 * enclave key, stamp it with the new key and retry: the session (200). `code` answers the OTP
 * (the message hook's, or the sandbox's `000000`).
 */
export async function otpLogin(
  p: TestPlatform,
  credentialId: string,
  code: (bundle: string) => Promise<string> | string,
  key: WalletKey = newWalletKey(),
): Promise<WalletSession> {
  const challenge = await p.post(`/auth/credentials/${credentialId}/challenge`, {});
  if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  const bundle = (challenge.body as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle;
  const type = (challenge.body as { type: string }).type;
  const body = { type, encryptedOtpBundle: await sealOtp(p, await code(bundle), bundle, key) };
  const first = await p.post(`/auth/credentials/${credentialId}/verify`, body);
  if (first.status !== 202) throw new Error(`verify: ${first.status} ${JSON.stringify(first.body)}`);
  const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
  const claims = await verifyOtpVerificationToken(payloadToSign, await enclaveKey(p));
  if (claims.public_key !== key.publicKey) throw new Error('the verification token is bound to another key');
  const done = await send(
    p,
    'post',
    `/auth/credentials/${credentialId}/verify`,
    body,
    signedHeaders(await stamp(key, payloadToSign), requestId),
  );
  if (done.status !== 200) throw new Error(`verify retry: ${done.status} ${JSON.stringify(done.body)}`);
  return { ...(done.body as Omit<WalletSession, 'key'>), key };
}

export interface TestWallet {
  customerId: string;
  /** The EMBEDDED_WALLET internal account. */
  accountId: string;
  /** Its EMAIL_OTP credential (provisioned with the wallet). */
  credentialId: string;
  email: string;
}

let walletSeq = 0;

/**
 * Turns embedded wallets on for the platform (PATCH /config, idempotent) and creates a customer
 * with a fresh email: its wallet account and EMAIL_OTP credential.
 */
export async function newTestWallet(p: TestPlatform, customer: Record<string, unknown> = {}): Promise<TestWallet> {
  const config = await p.patch('/config', { embeddedWalletConfig: { appName: 'Test wallet' } });
  if (config.status !== 200) throw new Error(`config: ${config.status} ${JSON.stringify(config.body)}`);
  const email = `wallet-${process.pid}-${++walletSeq}-${Math.random().toString(36).slice(2)}@example.com`;
  const created = await p.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: email,
    region: 'US',
    fullName: 'Wally Walletson',
    birthDate: '1990-01-15',
    nationality: 'US',
    email,
    address: { line1: '1 Main St', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
    ...customer,
  });
  if (created.status !== 201) throw new Error(`customer: ${created.status} ${JSON.stringify(created.body)}`);
  const customerId = (created.body as { id: string }).id;
  const accounts = await p.get(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
  const accountId = (accounts.body as { data: Array<{ id: string }> }).data[0].id;
  const creds = await p.get(`/auth/credentials?accountId=${accountId}`);
  const credentialId = (creds.body as { data: Array<{ id: string }> }).data[0].id;
  return { customerId, accountId, credentialId, email };
}

/** A wallet and a live session on it (the sandbox's magic OTP). */
export async function walletWithSession(
  p: TestPlatform,
  customer: Record<string, unknown> = {},
): Promise<TestWallet & { session: WalletSession }> {
  const wallet = await newTestWallet(p, customer);
  return { ...wallet, session: await otpLogin(p, wallet.credentialId, () => '000000') };
}

/** What a 202 answers: the challenge to stamp. */
export interface ChallengeResponse {
  body: { payloadToSign: string; requestId: string };
}

/**
 * The signed retry of a two-step request: the same request again, with `key`'s stamp over the
 * 202's `payloadToSign` and its `requestId` (`header` picks the signature header's name).
 */
export async function signedRetry(
  p: TestPlatform,
  method: 'post' | 'delete' | 'patch',
  path: string,
  body: object | undefined,
  key: WalletKey,
  challenge: ChallengeResponse,
  header?: 'Service-Wallet-Signature' | 'Grid-Wallet-Signature',
) {
  const { payloadToSign, requestId } = challenge.body;
  return send(p, method, path, body, signedHeaders(await stamp(key, payloadToSign), requestId, header));
}
