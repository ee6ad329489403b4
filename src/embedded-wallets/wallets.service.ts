import { createHash, randomInt } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { generateP256KeyPair, hpkeDecrypt } from '@turnkey/crypto';
import { uint8ArrayFromHexString } from '@turnkey/encoding';
import type { EntityManager } from 'typeorm';
import { noteAuditRefusal, noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock, later, type BusinessTime } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { isRecord } from '../common/objects.js';
import { AppConfig } from '../config/app-config.js';
import type { CustomerEntity } from '../customers/customer.entity.js';
import { CustomersService } from '../customers/customers.service.js';
import { InternalAccountsService } from '../customers/internal-accounts.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { EmailSender, SmsSender } from '../messaging/senders.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { conflictFor } from '../database/queries.js';
import { credentialEvent, sessionEvent } from './wallet-events.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { sameSecret } from '../secrets/constant-time.js';
import { SecretBox } from '../secrets/secret-box.js';
import { OneTimeCodeKey } from '../secrets/one-time-code-key.js';
import { type CodeLimitSubject, OneTimeCodeLimits } from '../common/one-time-code-limits.js';
import { oneTimeCodeDigest, oneTimeCodeMatches } from '../secrets/one-time-code.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import { oidcNonce, SandboxOidc } from './sandbox-oidc.js';
import { verifyAssertion, verifyRegistration, type StoredPasskey } from '../sca/factor-proofs.js';
import { canonicalJson } from './wallet-stamp.js';
import type {
  AuthCredentialCreateRequest,
  AuthCredentialVerifyRequest,
  AuthMethod,
  AuthMethodResponse,
  AuthMethodType,
  AuthSession,
  AuthSignedRequestChallenge,
  PasskeyAuthChallenge,
} from './wallet.dto.js';
import { isRetry, WalletSignatures, type RetryHeaders, type WalletAction } from './wallet-signatures.service.js';
import { COMPRESSED_KEY, isP256Point, UNCOMPRESSED_KEY } from './wallet-stamp.js';

/** The sandbox's magic one-time password: always accepted with SANDBOX=true (the real code works too). */
export const SANDBOX_MAGIC_OTP = '000000';
/** Wrong answers an issued OTP takes before it is spent (then 429 RATE_LIMITED: request a new one). */
export const MAX_OTP_ATTEMPTS = 5;
/** A session's lifetime on the platform's clock (refresh before it ends). */
export const SESSION_TTL_MS = 15 * 60_000;
const DEFAULT_OTP_LENGTH = 6;
const DEFAULT_OTP_SECONDS = 300;
const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const VERIFY_ACTION = 'POST /auth/credentials/{id}/verify';
export const CREATE_CREDENTIAL_ACTION = 'POST /auth/credentials';
export const REVOKE_CREDENTIAL_ACTION = 'DELETE /auth/credentials/{id}';
export const REFRESH_SESSION_ACTION = 'POST /auth/sessions/{id}/refresh';

/** The unique indexes of wallet_credentials and the spec's code for each (a race lost at insert). */
const CREDENTIAL_CONFLICTS = {
  wallet_credentials_one_email_otp: () =>
    new ApiError(
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      'The wallet already has an EMAIL_OTP credential (one per account)',
    ),
  wallet_credentials_one_sms_otp: () =>
    new ApiError('SMS_OTP_CREDENTIAL_ALREADY_EXISTS', 'The wallet already has an SMS_OTP credential (one per account)'),
  wallet_credentials_email_contact: () =>
    new ApiError('EMAIL_OTP_EMAIL_ALREADY_EXISTS', 'The email is already tied to an EMAIL_OTP credential'),
  wallet_credentials_phone_contact: () =>
    new ApiError('SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS', 'The phone number is already tied to an SMS_OTP credential'),
  wallet_credentials_passkey: () =>
    new ApiError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'This passkey is already registered on the wallet'),
};
export const REVOKE_SESSION_ACTION = 'DELETE /auth/sessions/{id}';

export interface CredentialRow {
  id: string;
  platform_id: string;
  account_id: string;
  type: AuthMethodType;
  nickname: string;
  contact: string | null;
  details: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

interface SessionRow {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: string;
  expires_at: BusinessTime;
  created_at: Date;
  updated_at: Date;
  type: AuthMethodType;
  nickname: string;
}

interface OtpRow {
  id: string;
  code_hash: string;
  target_private_key_enc: string;
  attempts: number;
  expires_at: BusinessTime;
}

const SESSION_SELECT = `SELECT s.id, s.account_id, s.credential_id, s.public_key, s.expires_at, s.created_at, s.updated_at,
    c.type, c.nickname
  FROM wallet_sessions s JOIN wallet_credentials c ON c.id = s.credential_id AND c.platform_id = s.platform_id`;

/** An answer that is either a 202 challenge or the route's own success. */
export type TwoStep<T> = { status: 202; body: AuthSignedRequestChallenge } | { status: number; body: T };

/** A refusal whose bookkeeping (a counted wrong OTP) commits before it is answered. */
class Refusal {
  constructor(readonly error: ApiError) {}
}

export function renderAuthMethod(row: CredentialRow): AuthMethod {
  return {
    id: formatId('AuthMethod', row.id),
    accountId: formatId('InternalAccount', row.account_id),
    type: row.type,
    ...(row.type === 'PASSKEY' && typeof row.details.credentialId === 'string'
      ? { credentialId: row.details.credentialId }
      : {}),
    nickname: row.nickname,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function renderSession(row: SessionRow): AuthSession {
  return {
    id: formatId('Session', row.id),
    accountId: formatId('InternalAccount', row.account_id),
    type: row.type,
    nickname: row.nickname,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

/** How many of a wallet's latest sessions the operator console shows. */
export const SESSION_HISTORY = 50;

/**
 * A credential as the operator console shows it (`contact` masked: `a•••@example.com`, `••••1234`;
 * so is a nickname that is the contact itself).
 */
export type OperatorCredential = AuthMethod & { contact: string | null };
/** A session as the operator console shows it, revoked and expired ones included. */
export type OperatorSession = AuthSession & {
  authMethodId: string;
  revokedAt: string | null;
  state: 'ACTIVE' | 'REVOKED' | 'EXPIRED';
};
export interface OperatorWalletView {
  accountId: string;
  credentials: OperatorCredential[];
  sessions: OperatorSession[];
}

/** A nickname that is the credential's contact (the default nickname) is masked like it. */
function maskedNickname(nickname: string, contact: string | null): string {
  return contact && nickname.toLowerCase() === contact.toLowerCase() ? (maskContact(contact) ?? nickname) : nickname;
}

/** An email's first character and domain, or a phone number's last four digits; null stays null. */
export function maskContact(contact: string | null): string | null {
  if (!contact) return null;
  const at = contact.lastIndexOf('@');
  if (at > 0) return `${contact[0]}•••${contact.slice(at)}`;
  return `••••${contact.slice(-4)}`;
}

type EmbeddedWalletConfig = NonNullable<Awaited<ReturnType<PlatformConfigService['embeddedWalletConfig']>>>;

/** What a wallet OTP's limits count against: the credential and its wallet (docs/embedded-wallets.md, "Limits"). */
const otpSubjects = (row: { id: string; platform_id: string; account_id: string }): CodeLimitSubject[] => [
  { platformId: row.platform_id, scope: 'wallet-otp-credential', subject: row.id },
  { platformId: row.platform_id, scope: 'wallet-otp-account', subject: row.account_id },
];

/**
 * A client-held session key: compressed P-256 (lower-cased); the deprecated uncompressed-key flow
 * (the server would make and return the session key) is refused with 400.
 */
export function clientKey(value: string): string {
  if (UNCOMPRESSED_KEY.test(value))
    throw invalidInput([
      fieldError(
        'clientPublicKey',
        'the deprecated uncompressed-key flow is not supported: send a compressed P-256 public key (the client keeps the session key)',
      ),
    ]);
  if (!COMPRESSED_KEY.test(value) || !isP256Point(value))
    throw invalidInput([fieldError('clientPublicKey', 'clientPublicKey must be a compressed P-256 public key (hex)')]);
  return value.toLowerCase();
}

/** A new one-time password of the platform's configured length and alphabet. */
function newOtp(config: EmbeddedWalletConfig): string {
  const length = config.otpLength ?? DEFAULT_OTP_LENGTH;
  const alphabet = config.alphanumeric ? ALPHANUMERIC : '0123456789';
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/**
 * Embedded wallets (docs/embedded-wallets.md): provisioning, authentication credentials, the
 * OTP login over real HPKE, and sessions bound to client-held keys. Every two-step route goes
 * through `WalletSignatures` (the one signed-retry implementation).
 */
@Injectable()
export class WalletsService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly appConfig: AppConfig,
    private readonly box: SecretBox,
    private readonly enclave: EnclaveKeys,
    private readonly signatures: WalletSignatures,
    private readonly accounts: InternalAccountsService,
    private readonly customers: CustomersService,
    private readonly platformConfig: PlatformConfigService,
    private readonly email: EmailSender,
    private readonly sms: SmsSender,
    private readonly outbox: OutboxService,
    private readonly oidc: SandboxOidc,
    private readonly codeKey: OneTimeCodeKey,
    private readonly limits: OneTimeCodeLimits,
  ) {}

  onModuleInit(): void {
    this.customers.onCustomerCreated(async (m, customer) => {
      if (await this.platformConfig.embeddedWalletConfig(m, customer.platformId)) await this.provision(m, customer);
    });
    // A customer that had no contact a wallet could own gets its wallet once it has one.
    this.customers.onCustomerUpdated(async (m, customer) => {
      if (await this.platformConfig.embeddedWalletConfig(m, customer.platformId)) await this.provision(m, customer);
    });
    this.platformConfig.onEmbeddedWalletsEnabled((m, platformId) => this.provisionAll(m, platformId));
  }

  // ---- provisioning ------------------------------------------------------------------------

  /**
   * Gives a customer its EMBEDDED_WALLET internal account together with its first credential, an
   * EMAIL_OTP tied to the customer's email. No wallet without a credential: a customer with no
   * email, or whose email is tied to another wallet's EMAIL_OTP credential of the platform, gets no
   * wallet (`unprovisionedReason` says why) until it has one (a later PATCH of its email runs this
   * again). Idempotent: an existing wallet is left alone.
   */
  async provision(m: EntityManager, customer: CustomerEntity): Promise<void> {
    if ((await this.unprovisionedReason(m, customer)) !== null) return;
    const { account, opened } = await this.accounts.openEmbeddedWallet(m, customer.platformId, customer.id);
    if (!opened) return;
    const contact = customer.email!.toLowerCase();
    await this.insertCredential(m, {
      platformId: customer.platformId,
      accountId: account.id,
      type: 'EMAIL_OTP',
      nickname: customer.email!,
      contact,
    });
  }

  /**
   * Why the customer cannot have a wallet now (no email; its email tied to another wallet), or null
   * when it can. An existing wallet's own credential does not count against it.
   */
  private async unprovisionedReason(
    m: EntityManager,
    customer: Pick<CustomerEntity, 'id' | 'platformId' | 'email'>,
  ): Promise<string | null> {
    if (customer.email === null || customer.email === undefined)
      return 'it has no email: set one (PATCH /customers/{id}) and the wallet is provisioned with an EMAIL_OTP credential';
    const [taken] = await m.query<Array<{ id: string }>>(
      `SELECT w.id FROM wallet_credentials w JOIN internal_accounts a ON a.id = w.account_id AND a.platform_id = w.platform_id
        WHERE w.platform_id = $1 AND w.type = 'EMAIL_OTP' AND w.contact = $2 AND w.deleted_at IS NULL
          AND a.customer_id <> $3`,
      [customer.platformId, customer.email.toLowerCase(), customer.id],
    );
    return taken
      ? "its email is tied to another wallet's EMAIL_OTP credential: give it an email of its own (PATCH /customers/{id})"
      : null;
  }

  /** Every active customer of a platform that just turned embedded wallets on (`FOR SHARE`: a concurrent delete waits). */
  private async provisionAll(m: EntityManager, platformId: string): Promise<void> {
    const rows = await m.query<Array<{ id: string; email: string | null }>>(
      `SELECT id, email FROM customers WHERE platform_id = $1 AND NOT is_deleted ORDER BY id FOR SHARE`,
      [platformId],
    );
    for (const row of rows) await this.provision(m, { id: row.id, platformId, email: row.email } as CustomerEntity);
  }

  async insertCredential(
    m: EntityManager,
    c: {
      platformId: string;
      accountId: string;
      type: AuthMethodType;
      nickname: string;
      contact: string | null;
      details?: Record<string, unknown>;
    },
  ): Promise<CredentialRow> {
    const id = newUuid();
    const now = this.clock.now();
    try {
      await m.query(
        `INSERT INTO wallet_credentials (id, platform_id, account_id, type, nickname, contact, details, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [id, c.platformId, c.accountId, c.type, c.nickname, c.contact, JSON.stringify(c.details ?? {}), now],
      );
    } catch (error) {
      throw conflictFor(error, CREDENTIAL_CONFLICTS) ?? error;
    }
    noteAuditResource(formatId('AuthMethod', id));
    const row: CredentialRow = {
      id,
      platform_id: c.platformId,
      account_id: c.accountId,
      type: c.type,
      nickname: c.nickname,
      contact: c.contact,
      details: c.details ?? {},
      created_at: now,
      updated_at: now,
    };
    await this.outbox.write(m, credentialEvent(c.platformId, 'AUTH_CREDENTIAL.CREATED', renderAuthMethod(row)));
    return row;
  }

  /**
   * The platform's EMBEDDED_WALLET internal account `accountId` (`InternalAccount:<uuid>`):
   * 404 ACCOUNT_NOT_FOUND when it is unknown or another platform's, 409 WALLET_NOT_PROVISIONED
   * when it is not an embedded wallet. Answers its uuid.
   */
  async requireWallet(m: EntityManager, platformId: string, accountId: string): Promise<string> {
    const uuid = parseId('InternalAccount', accountId);
    if (uuid === null)
      throw invalidInput([fieldError('accountId', 'accountId must be an InternalAccount id (InternalAccount:<uuid>)')]);
    const account = await this.accounts.find(m, platformId, uuid);
    if (account.type !== 'EMBEDDED_WALLET') {
      // The customer's other account: say why it has no wallet, when it has none.
      if (account.customerId !== null) await this.walletOfCustomer(m, platformId, account.customerId);
      throw new ApiError('WALLET_NOT_PROVISIONED', `${accountId} is not an embedded wallet`);
    }
    return uuid;
  }

  /** The customer's embedded wallet (uuid), or 409 WALLET_NOT_PROVISIONED. */
  async walletOfCustomer(m: EntityManager, platformId: string, customerId: string): Promise<string> {
    const [row] = await m.query<Array<{ id: string }>>(
      `SELECT id FROM internal_accounts WHERE platform_id = $1 AND customer_id = $2 AND type = 'EMBEDDED_WALLET'`,
      [platformId, customerId],
    );
    if (!row) {
      const [customer] = await m.query<Array<{ email: string | null }>>(
        `SELECT email FROM customers WHERE id = $1 AND platform_id = $2`,
        [customerId, platformId],
      );
      const why = customer
        ? await this.unprovisionedReason(m, { id: customerId, platformId, email: customer.email })
        : null;
      throw new ApiError(
        'WALLET_NOT_PROVISIONED',
        `Customer ${formatId('Customer', customerId)} has no embedded wallet${why ? `: ${why}` : ''}`,
      );
    }
    return row.id;
  }

  // ---- credentials -------------------------------------------------------------------------

  /** The live credentials of a wallet; empty for an id that is not one of the platform's wallets (the reference). */
  async listCredentials(platformId: string, accountId: string): Promise<{ data: AuthMethod[] }> {
    const uuid = parseId('InternalAccount', accountId);
    if (uuid === null) return { data: [] };
    const rows = await this.tx.query<CredentialRow[]>(
      `SELECT * FROM wallet_credentials WHERE platform_id = $1 AND account_id = $2 AND deleted_at IS NULL ORDER BY id`,
      [platformId, uuid],
    );
    return { data: rows.map(renderAuthMethod) };
  }

  /** A live credential of the platform (`AuthMethod:<uuid>`), locked FOR UPDATE; 404 AUTH_METHOD_NOT_FOUND otherwise. */
  async findCredential(m: EntityManager, platformId: string, id: string): Promise<CredentialRow> {
    const uuid = parseId('AuthMethod', id);
    const [row] =
      uuid === null
        ? []
        : await m.query<CredentialRow[]>(
            `SELECT * FROM wallet_credentials WHERE id = $1 AND platform_id = $2 AND deleted_at IS NULL FOR UPDATE`,
            [uuid, platformId],
          );
    if (!row) throw new ApiError('AUTH_METHOD_NOT_FOUND', `Authentication credential ${id} not found`);
    return row;
  }

  /** POST /auth/credentials/{id}/challenge: EMAIL_OTP / SMS_OTP send a new code and answer its target bundle. */
  async challenge(
    platformId: string,
    credentialId: string,
    clientPublicKey?: string,
  ): Promise<AuthMethodResponse | PasskeyAuthChallenge> {
    return this.tx.run(async (m) => {
      const row = await this.findCredential(m, platformId, credentialId);
      if (row.type === 'OAUTH')
        throw new ApiError(
          'INVALID_INPUT',
          'OAUTH credentials have no challenge step: verify them with a fresh OIDC token and a clientPublicKey',
        );
      if (row.type === 'PASSKEY') {
        if (clientPublicKey === undefined)
          throw invalidInput([fieldError('clientPublicKey', 'clientPublicKey is required to challenge a PASSKEY')]);
        const key = clientKey(clientPublicKey);
        const request = canonicalJson({
          organizationId: formatId('Platform', platformId),
          parameters: { credentialId: row.details.credentialId, targetPublicKey: key },
          timestampMs: String(this.clock.now().getTime()),
          type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
        });
        const challenge = createHash('sha256').update(request).digest('hex');
        const issued = await this.signatures.challenge(
          m,
          {
            platformId,
            accountId: row.account_id,
            action: VERIFY_ACTION,
            target: formatId('AuthMethod', row.id),
            body: {},
          },
          { payloadToSign: challenge, signerPublicKey: key },
        );
        noteAuditStatus(200);
        return {
          ...renderAuthMethod(row),
          credentialId: row.details.credentialId as string,
          challenge,
          requestId: issued.requestId,
          expiresAt: issued.expiresAt,
        };
      }
      const bundle = await this.issueOtp(m, row);
      return { ...renderAuthMethod(row), otpEncryptionTargetBundle: bundle };
    });
  }

  /**
   * Issues a one-time password for an OTP credential (earlier unused ones of it are spent): the code
   * hashed, an HPKE target key pair (private half sealed), expiry on the platform's clock; sends the
   * code through the email or SMS sender and answers the signed target bundle.
   */
  async issueOtp(m: EntityManager, row: CredentialRow): Promise<string> {
    const config = await this.platformConfig.embeddedWalletConfig(m, row.platform_id);
    if (!config) throw new ApiError('WALLET_NOT_PROVISIONED', 'The platform has not configured embedded wallets');
    await this.limits.issue(m, otpSubjects(row));
    const now = this.clock.now();
    const id = newUuid();
    const code = newOtp(config);
    const target = generateP256KeyPair();
    await m.query(
      `UPDATE wallet_otps SET used_at = $2 WHERE credential_id = $1 AND platform_id = $3 AND used_at IS NULL`,
      [row.id, now, row.platform_id],
    );
    await m.query(
      `INSERT INTO wallet_otps (id, platform_id, credential_id, code_hash, target_public_key, target_private_key_enc,
         expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        row.platform_id,
        row.id,
        oneTimeCodeDigest(await this.codeKey.current(), code, id),
        target.publicKeyUncompressed,
        this.box.seal(target.privateKey),
        later(now, (config.expirationSeconds ?? DEFAULT_OTP_SECONDS) * 1000),
        now,
      ],
    );
    noteAuditResource(formatId('AuthMethod', row.id));
    const sender = row.type === 'SMS_OTP' ? this.sms : this.email;
    await sender.send({ to: row.contact ?? row.nickname, purpose: 'WALLET_OTP', code });
    return this.enclave.targetBundle(target.publicKeyUncompressed, formatId('Platform', row.platform_id));
  }

  /**
   * POST /auth/credentials/{id}/verify. EMAIL_OTP / SMS_OTP, first leg: decrypts the
   * `encryptedOtpBundle` (HPKE, @turnkey/crypto), checks the code and answers 202 with a
   * verification token bound to the client's key as `payloadToSign`; signed retry (stamped by that
   * key): opens the session (200).
   */
  async verify(
    platformId: string,
    credentialId: string,
    body: AuthCredentialVerifyRequest,
    rawBody: unknown,
    headers: RetryHeaders,
  ): Promise<TwoStep<AuthSession>> {
    const outcome = await this.tx.run(async (m): Promise<TwoStep<AuthSession> | Refusal> => {
      const row = await this.findCredential(m, platformId, credentialId);
      if (body.type !== row.type)
        throw invalidInput([fieldError('type', `type must be the credential's type (${row.type})`)]);
      if (row.type === 'OAUTH') return { status: 200, body: await this.verifyOauth(m, row, body) };
      if (row.type === 'PASSKEY') return { status: 200, body: await this.verifyPasskey(m, row, body, headers) };
      if (body.encryptedOtpBundle === undefined)
        throw invalidInput([fieldError('encryptedOtpBundle', 'encryptedOtpBundle is required')]);
      const action: WalletAction = {
        platformId,
        accountId: row.account_id,
        action: VERIFY_ACTION,
        target: formatId('AuthMethod', row.id),
        body: rawBody,
      };
      if (isRetry(headers)) {
        const verified = await this.signatures.consume(m, headers, action);
        noteAuditStatus(200);
        return { status: 200, body: await this.openSession(m, row, verified.publicKey) };
      }
      return this.otpFirstLeg(m, row, body.encryptedOtpBundle, action);
    });
    if (outcome instanceof Refusal) throw outcome.error;
    return outcome;
  }

  /**
   * OAUTH verify: a fresh id token (`iat` within 60 seconds) of the credential's identity (`iss`,
   * `aud`, `sub`) whose `nonce` is sha256(clientPublicKey): a session on that key (one call).
   */
  private async verifyOauth(
    m: EntityManager,
    row: CredentialRow,
    body: AuthCredentialVerifyRequest,
  ): Promise<AuthSession> {
    const missing = (['oidcToken', 'clientPublicKey'] as const).filter((f) => body[f] === undefined);
    if (missing.length) throw invalidInput(missing.map((f) => fieldError(f, `${f} is required for OAUTH`)));
    const key = clientKey(body.clientPublicKey!);
    const identity = await this.oidc.verify(body.oidcToken!, true);
    const { iss, aud, sub } = row.details;
    if (identity.iss !== iss || identity.aud !== aud || identity.sub !== sub)
      throw new ApiError('UNAUTHORIZED', "The OIDC token's identity is not this credential's");
    if (identity.nonce !== oidcNonce(key) && identity.nonce !== oidcNonce(body.clientPublicKey!))
      throw new ApiError('UNAUTHORIZED', "The OIDC token's nonce must be sha256(clientPublicKey)");
    noteAuditStatus(200);
    return this.openSession(m, row, key);
  }

  /**
   * PASSKEY verify: the assertion over the challenge that `Request-Id` names (issued by
   * POST /auth/credentials/{id}/challenge with the client's key), checked with @simplewebauthn/server:
   * a session on that key.
   */
  private async verifyPasskey(
    m: EntityManager,
    row: CredentialRow,
    body: AuthCredentialVerifyRequest,
    headers: RetryHeaders,
  ): Promise<AuthSession> {
    if (body.assertion === undefined)
      throw invalidInput([fieldError('assertion', 'assertion is required for PASSKEY')]);
    const redeemed = await this.signatures.redeem(m, headers, {
      platformId: row.platform_id,
      accountId: row.account_id,
      action: VERIFY_ACTION,
      target: formatId('AuthMethod', row.id),
    });
    const a = body.assertion;
    const origin = this.passkeyOrigin(a.clientDataJson);
    const stored = row.details as unknown as StoredPasskey;
    const counter =
      origin === null
        ? null
        : await verifyAssertion(
            {
              id: a.credentialId,
              rawId: a.credentialId,
              type: 'public-key',
              response: {
                clientDataJSON: a.clientDataJson,
                authenticatorData: a.authenticatorData,
                signature: a.signature,
                ...(a.userHandle !== undefined ? { userHandle: a.userHandle } : {}),
              },
              clientExtensionResults: {},
            },
            Buffer.from(redeemed.payloadToSign, 'utf8').toString('base64url'),
            origin,
            this.rpId(),
            stored,
          );
    if (counter === null)
      throw new ApiError(
        'UNAUTHORIZED',
        'The passkey assertion does not verify (challenge, origin, credential or signature)',
      );
    await m.query(
      `UPDATE wallet_credentials SET details = jsonb_set(details, '{counter}', to_jsonb($2::int))
        WHERE id = $1 AND platform_id = $3`,
      [row.id, counter, row.platform_id],
    );
    noteAuditStatus(200);
    return this.openSession(m, row, redeemed.signerPublicKey!);
  }

  private async otpFirstLeg(
    m: EntityManager,
    row: CredentialRow,
    encryptedOtpBundle: string,
    action: WalletAction,
  ): Promise<TwoStep<AuthSession> | Refusal> {
    const now = this.clock.now();
    const [otp] = await m.query<OtpRow[]>(
      `SELECT id, code_hash, target_private_key_enc, attempts, expires_at FROM wallet_otps
        WHERE credential_id = $1 AND platform_id = $2 AND used_at IS NULL
        ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
      [row.id, row.platform_id],
    );
    if (!otp || otp.expires_at.getTime() <= now.getTime())
      throw new ApiError(
        'UNAUTHORIZED',
        'No unexpired one-time password is pending for this credential: request one with POST /auth/credentials/{id}/challenge',
      );
    await this.limits.guard(m, otpSubjects(row));
    if (otp.attempts >= MAX_OTP_ATTEMPTS)
      throw new ApiError('RATE_LIMITED', 'Too many wrong one-time passwords: request a new one (challenge)', {
        retryAfterSeconds: 1,
      });
    const attempt = this.decryptAttempt(encryptedOtpBundle, this.box.open(otp.target_private_key_enc));
    const magic = this.appConfig.SANDBOX && sameSecret(attempt.code, SANDBOX_MAGIC_OTP);
    if (!magic && !oneTimeCodeMatches(await this.codeKey.current(), attempt.code, otp.id, otp.code_hash)) {
      const attempts = otp.attempts + 1;
      await m.query(`UPDATE wallet_otps SET attempts = $2 WHERE id = $1 AND platform_id = $3`, [
        otp.id,
        attempts,
        row.platform_id,
      ]);
      const locked = await this.limits.failure(m, otpSubjects(row));
      noteAuditRefusal(); // the counts commit; the request is answered as the failure it is
      if (locked) return new Refusal(locked);
      return new Refusal(
        new ApiError(
          attempts >= MAX_OTP_ATTEMPTS ? 'RATE_LIMITED' : 'UNAUTHORIZED',
          attempts >= MAX_OTP_ATTEMPTS
            ? 'Wrong one-time password; too many wrong attempts: request a new one (challenge)'
            : 'Wrong one-time password',
          {
            details: { remainingAttempts: Math.max(0, MAX_OTP_ATTEMPTS - attempts) },
            ...(attempts >= MAX_OTP_ATTEMPTS ? { retryAfterSeconds: 1 } : {}),
          },
        ),
      );
    }
    await m.query(`UPDATE wallet_otps SET used_at = $2 WHERE id = $1 AND platform_id = $3`, [
      otp.id,
      now,
      row.platform_id,
    ]);
    await this.limits.success(m, otpSubjects(row));
    const token = await this.enclave.verificationToken({
      id: newUuid(),
      verification_type: row.type === 'SMS_OTP' ? 'OTP_TYPE_SMS' : 'OTP_TYPE_EMAIL',
      contact: row.contact ?? row.nickname,
      organization_id: formatId('Platform', row.platform_id),
      public_key: attempt.publicKey,
      exp: String(later(now, 5 * 60_000).getTime()),
      iat: Math.floor(now.getTime() / 1000),
    });
    const challenge = await this.signatures.challenge(m, action, {
      payloadToSign: token,
      signerPublicKey: attempt.publicKey,
    });
    return { status: 202, body: { type: row.type, ...challenge } };
  }

  /**
   * The `{otp_code, public_key}` sealed in an `encryptedOtpBundle` (`{encappedPublic, ciphertext}`
   * hex, as `encryptOtpCodeToBundle` writes it), opened with `hpkeDecrypt`. 400 INVALID_INPUT when
   * it cannot be opened or read, or the key is not a compressed P-256 key (the deprecated
   * uncompressed-key flow is refused).
   */
  private decryptAttempt(bundle: string, targetPrivateKey: string): { code: string; publicKey: string } {
    const bad = (message: string) => invalidInput([fieldError('encryptedOtpBundle', message)]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(bundle);
    } catch {
      throw bad('encryptedOtpBundle must be the JSON {encappedPublic, ciphertext}');
    }
    if (
      !isRecord(parsed) ||
      typeof parsed.encappedPublic !== 'string' ||
      typeof parsed.ciphertext !== 'string' ||
      !UNCOMPRESSED_KEY.test(parsed.encappedPublic) ||
      !/^([0-9a-fA-F]{2}){17,2048}$/.test(parsed.ciphertext)
    )
      throw bad('encryptedOtpBundle must be the JSON {encappedPublic, ciphertext} (hex)');
    let plain: unknown;
    try {
      const bytes = hpkeDecrypt({
        ciphertextBuf: uint8ArrayFromHexString(parsed.ciphertext),
        encappedKeyBuf: uint8ArrayFromHexString(parsed.encappedPublic),
        receiverPriv: targetPrivateKey,
      });
      plain = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw bad('encryptedOtpBundle cannot be decrypted: encrypt it to the latest otpEncryptionTargetBundle');
    }
    if (!isRecord(plain) || typeof plain.otp_code !== 'string' || typeof plain.public_key !== 'string')
      throw bad('the sealed payload must be {otp_code, public_key}');
    if (UNCOMPRESSED_KEY.test(plain.public_key))
      throw bad(
        'the deprecated uncompressed-key flow is not supported: seal a compressed P-256 public key (the client keeps the session key)',
      );
    if (!COMPRESSED_KEY.test(plain.public_key) || !isP256Point(plain.public_key))
      throw bad('public_key must be a compressed P-256 public key (hex)');
    return { code: plain.otp_code, publicKey: plain.public_key.toLowerCase() };
  }

  /**
   * POST /auth/credentials. Adding a credential always needs the signed retry (202, then 201),
   * stamped by a live session of the wallet (a verified credential's); the first credential is
   * made only at provisioning. EMAIL_OTP / SMS_OTP are tied to the customer's email / phone number and get a code
   * at once (`otpEncryptionTargetBundle`); activate them with verify.
   */
  async createCredential(
    platformId: string,
    body: AuthCredentialCreateRequest,
    rawBody: unknown,
    headers: RetryHeaders,
  ): Promise<TwoStep<AuthMethodResponse>> {
    return this.tx.run(async (m) => {
      const accountId = await this.requireWallet(m, platformId, body.accountId);
      // The account row, locked: two creations on one wallet queue (the one-per-account rules).
      await m.query(`SELECT id FROM internal_accounts WHERE id = $1 AND platform_id = $2 FOR UPDATE`, [
        accountId,
        platformId,
      ]);
      const planned = await this.plannedCredential(m, platformId, accountId, body);
      const action: WalletAction = {
        platformId,
        accountId,
        action: CREATE_CREDENTIAL_ACTION,
        target: formatId('InternalAccount', accountId),
        body: rawBody,
      };
      // Every credential is added by the wallet's holder: the signed retry of a live session of the
      // wallet (sessions come only from a verified credential). A wallet's first credential is made
      // at provisioning, so there is no unsigned path.
      if (!isRetry(headers)) {
        const challenge = await this.signatures.challenge(m, action, {
          payloadToSign: this.signatures.payload(platformId, planned.activity, {
            ...planned.parameters,
            userId: formatId('InternalAccount', accountId),
          }),
        });
        return { status: 202, body: { type: body.type, ...challenge } };
      }
      await this.signatures.consume(m, headers, action);
      const row = await this.insertCredential(m, {
        platformId,
        accountId,
        type: body.type,
        nickname: planned.nickname,
        contact: planned.contact,
        details: planned.details,
      });
      noteAuditStatus(201);
      const view: AuthMethodResponse = renderAuthMethod(row);
      if (row.type === 'EMAIL_OTP' || row.type === 'SMS_OTP')
        view.otpEncryptionTargetBundle = await this.issueOtp(m, row);
      return { status: 201, body: view };
    });
  }

  /** What a create request would add (checked on both legs): the spec's codes when it cannot be. */
  private async plannedCredential(
    m: EntityManager,
    platformId: string,
    accountId: string,
    body: AuthCredentialCreateRequest,
  ): Promise<{
    nickname: string;
    contact: string | null;
    details: Record<string, unknown>;
    activity: string;
    parameters: Record<string, unknown>;
  }> {
    const live = await m.query<Array<{ type: AuthMethodType; contact: string | null }>>(
      `SELECT type, contact FROM wallet_credentials WHERE account_id = $1 AND platform_id = $2 AND deleted_at IS NULL`,
      [accountId, platformId],
    );
    const [customer] = await m.query<Array<{ email: string | null; phone_number: string | null }>>(
      `SELECT c.email, c.phone_number
         FROM customers c JOIN internal_accounts a ON a.customer_id = c.id AND a.platform_id = c.platform_id
        WHERE a.id = $1 AND a.platform_id = $2`,
      [accountId, platformId],
    );
    if (body.type === 'EMAIL_OTP' || body.type === 'SMS_OTP') {
      const email = body.type === 'EMAIL_OTP';
      if (live.some((c) => c.type === body.type))
        throw email
          ? CREDENTIAL_CONFLICTS.wallet_credentials_one_email_otp()
          : CREDENTIAL_CONFLICTS.wallet_credentials_one_sms_otp();
      const value = email ? customer?.email : customer?.phone_number;
      if (!value)
        throw new ApiError(
          'INVALID_INPUT',
          email
            ? 'The customer has no email: set one with PATCH /customers/{id} first'
            : 'The customer has no phone number: set one with PATCH /customers/{id} first',
        );
      const contact = email ? value.toLowerCase() : value;
      const [taken] = await m.query<Array<{ id: string }>>(
        `SELECT id FROM wallet_credentials WHERE platform_id = $1 AND type = $2 AND contact = $3 AND deleted_at IS NULL`,
        [platformId, body.type, contact],
      );
      if (taken)
        throw email
          ? CREDENTIAL_CONFLICTS.wallet_credentials_email_contact()
          : CREDENTIAL_CONFLICTS.wallet_credentials_phone_contact();
      return email
        ? {
            nickname: value,
            contact,
            details: {},
            activity: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
            parameters: { userEmail: value },
          }
        : {
            nickname: value,
            contact,
            details: {},
            activity: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
            parameters: { userPhoneNumber: value },
          };
    }
    if (body.type === 'OAUTH') {
      if (body.oidcToken === undefined)
        throw invalidInput([fieldError('oidcToken', 'oidcToken is required for an OAUTH credential')]);
      const identity = await this.oidc.verify(body.oidcToken, true);
      return {
        nickname: identity.email ?? identity.sub,
        contact: null,
        details: { iss: identity.iss, aud: identity.aud, sub: identity.sub },
        activity: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
        parameters: { oauthProviders: [{ oidcToken: body.oidcToken, providerName: 'Sandbox' }] },
      };
    }
    const missing = (['nickname', 'challenge', 'attestation'] as const).filter((f) => body[f] === undefined);
    if (missing.length)
      throw invalidInput(missing.map((f) => fieldError(f, `${f} is required for a PASSKEY credential`)));
    const a = body.attestation!;
    const origin = this.passkeyOrigin(a.clientDataJson);
    const stored =
      origin === null
        ? null
        : await verifyRegistration(
            {
              id: a.credentialId,
              rawId: a.credentialId,
              type: 'public-key',
              response: {
                clientDataJSON: a.clientDataJson,
                attestationObject: a.attestationObject,
                transports: a.transports ?? [],
              },
              clientExtensionResults: {},
            },
            body.challenge!,
            origin,
            this.rpId(),
          );
    if (!stored)
      throw invalidInput([
        fieldError('attestation', 'the attestation does not verify (challenge, origin, relying party or signature)'),
      ]);
    const [dup] = await m.query<Array<{ id: string }>>(
      `SELECT id FROM wallet_credentials
        WHERE account_id = $1 AND platform_id = $3 AND type = 'PASSKEY' AND details->>'credentialId' = $2
          AND deleted_at IS NULL`,
      [accountId, stored.credentialId, platformId],
    );
    if (dup) throw CREDENTIAL_CONFLICTS.wallet_credentials_passkey();
    return {
      nickname: body.nickname!.trim(),
      contact: null,
      details: { ...stored },
      activity: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
      parameters: {
        authenticators: [
          {
            attestation: {
              attestationObject: a.attestationObject,
              clientDataJson: a.clientDataJson,
              credentialId: a.credentialId,
            },
            authenticatorName: body.nickname!.trim(),
            challenge: body.challenge,
          },
        ],
      },
    };
  }

  /** The configured passkey origin the client data names (SCA_PASSKEY_ORIGINS), or null. */
  private passkeyOrigin(clientDataJson: string): string | null {
    try {
      const data: unknown = JSON.parse(Buffer.from(clientDataJson, 'base64url').toString('utf8'));
      const origin = isRecord(data) && typeof data.origin === 'string' ? data.origin : null;
      return origin !== null && this.appConfig.SCA_PASSKEY_ORIGINS.split(',').includes(origin) ? origin : null;
    } catch {
      return null;
    }
  }

  private rpId(): string {
    return this.appConfig.SCA_PASSKEY_RP_ID ?? new URL(this.appConfig.SCA_PASSKEY_ORIGINS.split(',')[0]).hostname;
  }

  /**
   * DELETE /auth/credentials/{id}: 202, then the signed retry by a live session of another
   * credential of the wallet (204). The credential's sessions are revoked with it. A wallet keeps
   * at least one credential (400).
   */
  async revokeCredential(platformId: string, credentialId: string, headers: RetryHeaders): Promise<TwoStep<null>> {
    return this.tx.run(async (m) => {
      const row = await this.findCredential(m, platformId, credentialId);
      await m.query(`SELECT id FROM internal_accounts WHERE id = $1 AND platform_id = $2 FOR UPDATE`, [
        row.account_id,
        platformId,
      ]);
      // Exactly: another live credential of the wallet than this one (its signer must be a session of it).
      const [other] = await m.query<Array<{ n: string }>>(
        `SELECT count(*)::text AS n FROM wallet_credentials
          WHERE account_id = $1 AND platform_id = $3 AND id <> $2 AND deleted_at IS NULL`,
        [row.account_id, row.id, platformId],
      );
      if (Number(other.n) === 0)
        throw new ApiError('INVALID_INPUT', 'A wallet keeps at least one authentication credential: add another first');
      const action: WalletAction = {
        platformId,
        accountId: row.account_id,
        action: REVOKE_CREDENTIAL_ACTION,
        target: formatId('AuthMethod', row.id),
        body: {},
      };
      if (!isRetry(headers)) {
        const challenge = await this.signatures.challenge(m, action, {
          payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', {
            authMethodIds: [formatId('AuthMethod', row.id)],
            userId: formatId('InternalAccount', row.account_id),
          }),
        });
        return { status: 202, body: { type: row.type, ...challenge } };
      }
      const verified = await this.signatures.consume(m, headers, action);
      const [signer] = await m.query<Array<{ credential_id: string }>>(
        `SELECT credential_id FROM wallet_sessions WHERE id = $1 AND platform_id = $2`,
        [verified.sessionId, platformId],
      );
      if (signer?.credential_id === row.id)
        throw new ApiError(
          'WALLET_SIGNATURE_INVALID',
          'A credential is revoked with a session of another credential of the wallet, not its own',
        );
      const now = this.clock.now();
      await m.query(
        `UPDATE wallet_credentials SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND platform_id = $3`,
        [row.id, now, platformId],
      );
      await m.query(
        `UPDATE wallet_otps SET used_at = $2 WHERE credential_id = $1 AND platform_id = $3 AND used_at IS NULL`,
        [row.id, now, platformId],
      );
      noteAuditResource(formatId('AuthMethod', row.id));
      await this.outbox.write(
        m,
        credentialEvent(platformId, 'AUTH_CREDENTIAL.REVOKED', renderAuthMethod({ ...row, updated_at: now })),
      );
      const sessions = await m.query<SessionRow[]>(
        `${SESSION_SELECT}
          WHERE s.credential_id = $1 AND s.platform_id = $3 AND s.revoked_at IS NULL AND s.expires_at > $2
          FOR UPDATE OF s`,
        [row.id, now, platformId],
      );
      await this.revokeSessions(m, platformId, sessions);
      noteAuditStatus(204);
      return { status: 204, body: null };
    });
  }

  // ---- sessions ----------------------------------------------------------------------------

  /**
   * Opens a session of `credential` bound to the client's compressed public key (no key material is
   * returned). A client key is bound to one live session: a new session on a key replaces (revokes)
   * the wallet's live sessions on the same key, and a key that is live on another wallet's session
   * is refused (400). The key's rows are serialized by a transaction-scoped advisory lock. The
   * binding is per platform (the statements are pinned to the credential's platform: issue 49): a
   * stamp is only ever checked against its own platform's sessions (WalletSignatures).
   */
  async openSession(m: EntityManager, credential: CredentialRow, publicKey: string): Promise<AuthSession> {
    const id = newUuid();
    const now = this.clock.now();
    const key = publicKey.toLowerCase();
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 47))`, [`wallet-session-key:${key}`]);
    const live = await m.query<Array<SessionRow & { platform_id: string }>>(
      `${SESSION_SELECT.replace('SELECT s.id,', 'SELECT s.platform_id, s.id,')}
        WHERE s.public_key = $1 AND s.platform_id = $3 AND s.revoked_at IS NULL AND s.expires_at > $2
        FOR UPDATE OF s`,
      [key, now, credential.platform_id],
    );
    if (live.some((r) => r.account_id !== credential.account_id || r.platform_id !== credential.platform_id))
      throw invalidInput([
        fieldError('clientPublicKey', 'this key is bound to a live session of another wallet: use a fresh key pair'),
      ]);
    await this.revokeSessions(m, credential.platform_id, live);
    const expiresAt = later(now, SESSION_TTL_MS);
    await m.query(
      `INSERT INTO wallet_sessions (id, platform_id, account_id, credential_id, public_key, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [id, credential.platform_id, credential.account_id, credential.id, publicKey.toLowerCase(), expiresAt, now],
    );
    noteAuditResource(formatId('Session', id));
    const session = renderSession({
      id,
      account_id: credential.account_id,
      credential_id: credential.id,
      public_key: publicKey,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
      type: credential.type,
      nickname: credential.nickname,
    });
    await this.outbox.write(m, sessionEvent(credential.platform_id, 'AUTH_SESSION.CREATED', session));
    return session;
  }

  /** Revokes sessions (rows as `findSession` reads them) in `m`, with their events. */
  private async revokeSessions(m: EntityManager, platformId: string, rows: SessionRow[]): Promise<void> {
    const now = this.clock.now();
    for (const row of rows) {
      await m.query(`UPDATE wallet_sessions SET revoked_at = $2, updated_at = $2 WHERE id = $1 AND platform_id = $3`, [
        row.id,
        now,
        platformId,
      ]);
      noteAuditResource(formatId('Session', row.id));
      await this.outbox.write(
        m,
        sessionEvent(platformId, 'AUTH_SESSION.REVOKED', renderSession({ ...row, updated_at: now })),
      );
    }
  }

  /** The wallet's active sessions (unexpired on the platform's clock, not revoked); empty for a foreign id. */
  async listSessions(platformId: string, accountId: string): Promise<{ data: AuthSession[] }> {
    const uuid = parseId('InternalAccount', accountId);
    if (uuid === null) return { data: [] };
    const rows = await this.tx.query<SessionRow[]>(
      `SELECT s.id, s.account_id, s.credential_id, s.public_key, s.expires_at, s.created_at, s.updated_at, c.type, c.nickname
         FROM wallet_sessions s JOIN wallet_credentials c ON c.id = s.credential_id AND c.platform_id = s.platform_id
        WHERE s.platform_id = $1 AND s.account_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3
        ORDER BY s.id`,
      [platformId, uuid, this.clock.now()],
    );
    return { data: rows.map(renderSession) };
  }

  /** An active session of the platform (`Session:<uuid>`), locked; 404 SESSION_NOT_FOUND otherwise. */
  private async findSession(m: EntityManager, platformId: string, id: string): Promise<SessionRow> {
    const uuid = parseId('Session', id);
    const [row] =
      uuid === null
        ? []
        : await m.query<SessionRow[]>(
            `SELECT s.id, s.account_id, s.credential_id, s.public_key, s.expires_at, s.created_at, s.updated_at, c.type, c.nickname
               FROM wallet_sessions s JOIN wallet_credentials c ON c.id = s.credential_id AND c.platform_id = s.platform_id
              WHERE s.id = $1 AND s.platform_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3
              FOR UPDATE OF s`,
            [uuid, platformId, this.clock.now()],
          );
    if (!row) throw new ApiError('SESSION_NOT_FOUND', `No active session ${id}`);
    return row;
  }

  /**
   * The operator console's view of a wallet (`accountId` an EMBEDDED_WALLET of the platform, else
   * 404 ACCOUNT_NOT_FOUND / 409 WALLET_NOT_PROVISIONED): its live credentials with the contact
   * masked, and its latest sessions (newest first, up to `SESSION_HISTORY`), revoked and expired ones
   * included, each with its state on the platform's clock.
   */
  async operatorView(platformId: string, accountId: string): Promise<OperatorWalletView> {
    return this.tx.run(async (m) => {
      const uuid = await this.requireWallet(m, platformId, accountId);
      const credentials = await m.query<CredentialRow[]>(
        `SELECT * FROM wallet_credentials WHERE platform_id = $1 AND account_id = $2 AND deleted_at IS NULL ORDER BY id`,
        [platformId, uuid],
      );
      const sessions = await m.query<Array<SessionRow & { revoked_at: Date | null; contact: string | null }>>(
        `SELECT s.id, s.account_id, s.credential_id, s.public_key, s.expires_at, s.created_at, s.updated_at, s.revoked_at,
                c.type, c.nickname, c.contact
           FROM wallet_sessions s JOIN wallet_credentials c ON c.id = s.credential_id AND c.platform_id = s.platform_id
          WHERE s.platform_id = $1 AND s.account_id = $2
          ORDER BY s.id DESC LIMIT ${SESSION_HISTORY}`,
        [platformId, uuid],
      );
      const now = this.clock.now().getTime();
      return {
        accountId: formatId('InternalAccount', uuid),
        credentials: credentials.map((row) => ({
          ...renderAuthMethod(row),
          nickname: maskedNickname(row.nickname, row.contact),
          contact: maskContact(row.contact),
        })),
        sessions: sessions.map((row) => ({
          ...renderSession(row),
          nickname: maskedNickname(row.nickname, row.contact),
          authMethodId: formatId('AuthMethod', row.credential_id),
          revokedAt: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
          state: row.revoked_at ? 'REVOKED' : new Date(row.expires_at).getTime() <= now ? 'EXPIRED' : 'ACTIVE',
        })),
      };
    });
  }

  /**
   * The operator console's revocation of a live session of the platform (no wallet signature: the
   * operator acts on the platform's authority, audited by the console's route). The same
   * revocation as DELETE /auth/sessions/{id} (revoked_at and AUTH_SESSION.REVOKED in one
   * transaction); 404 SESSION_NOT_FOUND for an unknown, another platform's, expired or revoked one.
   */
  async revokeSessionAsOperator(platformId: string, sessionId: string): Promise<AuthSession & { revokedAt: string }> {
    return this.tx.run(async (m) => {
      const row = await this.findSession(m, platformId, sessionId);
      await this.revokeSessions(m, platformId, [row]);
      const now = this.clock.now();
      return { ...renderSession({ ...row, updated_at: now }), revokedAt: now.toISOString() };
    });
  }

  /**
   * DELETE /auth/sessions/{id}: 202 challenge, then the signed retry (a live session key of the
   * same wallet, the session itself included) revokes it (204).
   */
  async revokeSession(platformId: string, sessionId: string, headers: RetryHeaders): Promise<TwoStep<null>> {
    return this.tx.run(async (m) => {
      const row = await this.findSession(m, platformId, sessionId);
      const action: WalletAction = {
        platformId,
        accountId: row.account_id,
        action: REVOKE_SESSION_ACTION,
        target: formatId('Session', row.id),
        body: {},
      };
      if (!isRetry(headers)) {
        const challenge = await this.signatures.challenge(m, action, {
          payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_DELETE_SESSIONS', {
            sessionIds: [formatId('Session', row.id)],
          }),
        });
        return { status: 202, body: { type: row.type, ...challenge } };
      }
      await this.signatures.consume(m, headers, action);
      await this.revokeSessions(m, platformId, [row]);
      noteAuditStatus(204);
      return { status: 204, body: null };
    });
  }

  /**
   * POST /auth/sessions/{id}/refresh `{clientPublicKey}`: 202 binding the new key, then the signed
   * retry by the session's own key: a new session on the new key (201); the old one is revoked.
   */
  async refreshSession(
    platformId: string,
    sessionId: string,
    clientPublicKey: string,
    rawBody: unknown,
    headers: RetryHeaders,
  ): Promise<TwoStep<AuthSession>> {
    const key = clientKey(clientPublicKey);
    return this.tx.run(async (m) => {
      const row = await this.findSession(m, platformId, sessionId);
      const action: WalletAction = {
        platformId,
        accountId: row.account_id,
        action: REFRESH_SESSION_ACTION,
        target: formatId('Session', row.id),
        body: rawBody,
      };
      if (!isRetry(headers)) {
        const challenge = await this.signatures.challenge(m, action, {
          payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', {
            targetPublicKey: key,
          }),
          signerPublicKey: row.public_key,
        });
        return { status: 202, body: { type: row.type, ...challenge } };
      }
      await this.signatures.consume(m, headers, action);
      const credential = await this.findCredential(m, platformId, formatId('AuthMethod', row.credential_id));
      await this.revokeSessions(m, platformId, [row]);
      const session = await this.openSession(m, credential, key);
      noteAuditStatus(201);
      return { status: 201, body: session };
    });
  }
}
