import { noteAuditRefusal, noteAuditResource } from '../audit/audit-trail.js';
import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, later } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import type { CustomerEntity } from '../customers/customer.entity.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { AppConfig } from '../config/app-config.js';
import { SecretBox } from '../secrets/secret-box.js';
import { sameSecret } from '../secrets/constant-time.js';
import {
  assertionOptions,
  linkedChallenge,
  verifyAssertion,
  verifyRegistration,
  verifyTotp,
  type StoredPasskey,
} from './factor-proofs.js';
import { CHALLENGE_TTL_MS, MAX_FAILED_ATTEMPTS, MAX_RESENDS, RESEND_INTERVAL_MS, ScaSettings } from './sca-settings.js';
import { SmsSender } from '../messaging/senders.js';
import { newOneTimeCode, oneTimeCodeDigest, oneTimeCodeMatches } from '../secrets/one-time-code.js';
import { OneTimeCodeKey } from '../secrets/one-time-code-key.js';
import { type CodeLimitSubject, OneTimeCodeLimits } from '../common/one-time-code-limits.js';

/** The purposes of challenges. */
export const LOGIN = 'LOGIN';
export const ENROLL_TOTP = 'ENROLL_TOTP';
export const ENROLL_PASSKEY = 'ENROLL_PASSKEY';
export const TRUST_BENEFICIARY = 'TRUST_BENEFICIARY';
export const UNTRUST_BENEFICIARY = 'UNTRUST_BENEFICIARY';
/** A payment (a quote): bound to its amounts and payee. */
export const AUTHORIZE_PAYMENT = 'AUTHORIZE_PAYMENT';

export type ScaFactor = 'SMS_OTP' | 'TOTP' | 'PASSKEY';
/**
 * Why a proof was refused: the reference's 400 "invalid or expired proof" is `INVALID_INPUT`, told
 * apart by `details.challenge`: `WRONG_PROOF` (the code, assertion or credential does not satisfy
 * it; `failedAttempts`, `remainingAttempts`), `LOCKED` (five wrong answers), `EXPIRED`, `USED`
 * (single use: a replayed proof) or `UNKNOWN` (no pending challenge of this customer for this
 * operation: unknown, foreign or issued for something else).
 */
export type ChallengeRefusal = 'WRONG_PROOF' | 'LOCKED' | 'EXPIRED' | 'USED' | 'UNKNOWN';

export function challengeRefused(
  challenge: ChallengeRefusal,
  reason: string,
  extra: Record<string, unknown> = {},
): ApiError {
  return new ApiError('INVALID_INPUT', reason, { details: { challenge, ...extra } });
}

/** The factor asked for is not enrolled (or, for SMS_OTP, the customer has no phone number). */
export function factorNotEnrolled(reason: string): ApiError {
  return invalidInput([fieldError('factor', reason)], reason);
}

export const SCA_FACTORS: readonly ScaFactor[] = ['SMS_OTP', 'TOTP', 'PASSKEY'];

/** What a challenge authorizes: the operation and the exact thing it is for (dynamic linking). */
export interface ChallengeTarget {
  purpose: string;
  /** The resource (e.g. `ExternalAccount:<uuid>`) or `login`. */
  subject: string;
  /** Everything the proof is bound to (for a payment: amount and payee), in one canonical text. */
  binding: string;
}

/** A proof as the reference's ScaAuthorization carries it. */
export interface ScaProof {
  code?: string | null;
  passkeyAssertion?: Record<string, unknown> | null;
  origin?: string | null;
  /** A passkey registration (enrollment confirm): the device's credential. */
  registration?: Record<string, unknown>;
}

/** The reference's ScaChallenge. */
export interface ScaChallengeView {
  id: string;
  expiresAt: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  purpose?: string;
  passkeyAssertionOptions?: Record<string, unknown>;
  passkeyAllowedOrigins?: string[];
}

interface ChallengeRow {
  id: string;
  customer_id: string;
  purpose: string;
  subject: string;
  binding: string;
  factor: ScaFactor;
  available_factors: ScaFactor[];
  /** A challenge issued before the codes were MACed: its code sealed (read until it expires). */
  sms_code: string | null;
  /** The SMS code as HMAC-SHA256 under the one-time-code key (src/secrets/one-time-code.ts). */
  sms_code_mac?: string | null;
  enrollment_secret: string | null;
  webauthn_challenge: string | null;
  failed_attempts: number;
  status: 'PENDING' | 'USED' | 'LOCKED';
  expires_at: Date;
  /** BUSINESS time the SMS code was last sent (a window for re-sends is counted from it). */
  code_sent_at?: Date | null;
  resend_count?: number;
}

interface FactorRow {
  id: string;
  factor: 'TOTP' | 'PASSKEY';
  totp_secret: string | null;
  totp_last_step: string | null;
  credential_id: string | null;
  public_key: string | null;
  counter: string;
  transports: string[];
}

/** The sandbox's SMS code (the reference: "in sandbox, the SMS code is always 123456"). */
export const SANDBOX_SMS_CODE = '123456';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** What SMS codes' cross-challenge limits count against (OneTimeCodeLimits): the customer. */
const smsSubjects = (customer: { platformId: string; id: string }): CodeLimitSubject[] => [
  { platformId: customer.platformId, scope: 'sca-sms-customer', subject: customer.id },
];

/** What a proof is checked against (ScaChallengesService.authorize), found in its transaction. */
export interface ChallengeLookup {
  customer: CustomerEntity;
  target: Omit<ChallengeTarget, 'binding'> & { binding?: string };
  challengeId: string | null;
  factor?: ScaFactor;
}

/** A failed attempt, committed before the error is answered. */
class Refusal {
  constructor(readonly error: ApiError) {}
}

/**
 * SCA challenges (`ScaChallenge:<uuid>`): issued for one operation on one thing, single use,
 * expiring on the platform's clock, locked by five wrong answers. `authorize` is the one place a
 * proof is checked: an SMS code (sealed at rest, compared in constant time), a TOTP code (otplib,
 * one step of drift, each step used once) or a passkey assertion (@simplewebauthn/server, against
 * the allowed origins, its counter checked). The customer's enrolled factors are read here too.
 */
@Injectable()
export class ScaChallengesService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly settings: ScaSettings,
    private readonly sms: SmsSender,
    private readonly config: AppConfig,
    private readonly codeKey: OneTimeCodeKey,
    private readonly limits: OneTimeCodeLimits,
  ) {}

  /** The customer's enrolled TOTP and passkey factors (rows), locked when `lock`. */
  async factors(m: EntityManager, customer: { id: string; platformId: string }, lock = false): Promise<FactorRow[]> {
    return await m.query<FactorRow[]>(
      `SELECT id, factor, totp_secret, totp_last_step, credential_id, public_key, counter, transports
       FROM sca_factors WHERE customer_id = $1 AND platform_id = $2 ORDER BY created_at${lock ? ' FOR UPDATE' : ''}`,
      [customer.id, customer.platformId],
    );
  }

  passkeyOf(rows: FactorRow[]): StoredPasskey | null {
    const row = rows.find((r) => r.factor === 'PASSKEY');
    return row
      ? {
          credentialId: row.credential_id!,
          publicKey: row.public_key!,
          counter: Number(row.counter),
          transports: row.transports,
        }
      : null;
  }

  /**
   * Issues a challenge for `target` with `factor` (SMS_OTP sends the code now; PASSKEY carries
   * assertion options whose WebAuthn challenge is bound to the target) and answers it.
   */
  async issue(
    m: EntityManager,
    customer: CustomerEntity,
    target: ChallengeTarget,
    factor: ScaFactor,
    extra: { enrollmentSecret?: string; webauthnChallenge?: string; ttlMs?: number } = {},
  ): Promise<{ view: ScaChallengeView; passkeyOptions?: Record<string, unknown> }> {
    const id = newUuid();
    const now = this.clock.now();
    const expiresAt = later(now, extra.ttlMs ?? CHALLENGE_TTL_MS);
    let smsCodeMac: string | null = null;
    let webauthnChallenge = extra.webauthnChallenge ?? null;
    let passkeyOptions: Record<string, unknown> | undefined;
    if (factor === 'SMS_OTP') {
      if (!customer.phoneNumber)
        throw factorNotEnrolled("SMS_OTP needs the customer's phone number: the customer has none");
      await this.limits.issue(m, smsSubjects(customer));
      const code = this.config.SANDBOX ? SANDBOX_SMS_CODE : newOneTimeCode(6);
      smsCodeMac = oneTimeCodeDigest(await this.codeKey.current(), code, id);
      await this.sms.send({ to: customer.phoneNumber, purpose: target.purpose, code });
    } else if (factor === 'PASSKEY' && !webauthnChallenge) {
      const passkey = this.passkeyOf(await this.factors(m, customer));
      if (!passkey) throw factorNotEnrolled('The customer has no passkey enrolled');
      const challenge = linkedChallenge(randomBytes(32), `${id}|${target.purpose}|${target.binding}`);
      passkeyOptions = (await assertionOptions(this.settings.relyingPartyId, passkey, challenge)) as unknown as Record<
        string,
        unknown
      >;
      webauthnChallenge = passkeyOptions.challenge as string;
    } else if (factor === 'TOTP') {
      const totp = (await this.factors(m, customer)).some((r) => r.factor === 'TOTP');
      if (!totp) throw factorNotEnrolled('The customer has no TOTP factor enrolled');
    }
    await m.query(
      `INSERT INTO sca_challenges (id, platform_id, customer_id, purpose, subject, binding, factor, available_factors,
         sms_code_mac, enrollment_secret, webauthn_challenge, failed_attempts, status, expires_at, created_at, code_sent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, 'PENDING', $12, $13, $14)`,
      [
        id,
        customer.platformId,
        customer.id,
        target.purpose,
        target.subject,
        digest(target.binding),
        factor,
        [factor],
        smsCodeMac,
        extra.enrollmentSecret ? this.box.seal(extra.enrollmentSecret) : null,
        webauthnChallenge,
        expiresAt,
        now,
        smsCodeMac ? now : null,
      ],
    );
    noteAuditResource(formatId('ScaChallenge', id));
    const view: ScaChallengeView = {
      id: formatId('ScaChallenge', id),
      expiresAt: expiresAt.toISOString(),
      factor,
      availableFactors: [factor],
      purpose: target.purpose,
    };
    if (passkeyOptions) {
      view.passkeyAssertionOptions = passkeyOptions;
      view.passkeyAllowedOrigins = [...this.settings.passkeyOrigins];
    }
    return { view, passkeyOptions };
  }

  /**
   * Re-sends the SMS code of the customer's pending challenge `challengeId` (the same code; the
   * challenge and its `expiresAt` are unchanged). 409 CONFLICT when it is not a pending SMS_OTP
   * challenge of this customer, or has expired; 429 RATE_LIMITED (with `Retry-After`) within
   * RESEND_INTERVAL_MS of the last send, or after MAX_RESENDS re-sends (the platform's clock).
   */
  async resend(m: EntityManager, customer: CustomerEntity, challengeId: string): Promise<void> {
    const rows = await m.query<ChallengeRow[]>(
      `SELECT id, purpose, factor, sms_code, sms_code_mac, status, expires_at, code_sent_at, resend_count
       FROM sca_challenges WHERE id = $1 AND customer_id = $2 AND platform_id = $3 FOR UPDATE`,
      [challengeId, customer.id, customer.platformId],
    );
    const row = rows[0];
    if (!row || row.factor !== 'SMS_OTP' || (!row.sms_code && !row.sms_code_mac) || !customer.phoneNumber)
      throw new ApiError('CONFLICT', 'There is no pending SMS_OTP challenge to re-send: only SMS codes can be re-sent');
    const now = this.clock.now();
    if (row.status !== 'PENDING' || row.expires_at.getTime() <= now.getTime())
      throw new ApiError(
        'CONFLICT',
        `The challenge is ${row.status === 'PENDING' ? 'EXPIRED' : row.status}: nothing to re-send`,
        {
          details: { status: row.status === 'PENDING' ? 'EXPIRED' : row.status },
        },
      );
    const resent = row.resend_count ?? 0;
    const lastSent = (row.code_sent_at ?? row.expires_at).getTime();
    const waitMs = Math.min(lastSent + RESEND_INTERVAL_MS, row.expires_at.getTime()) - now.getTime();
    if (resent >= MAX_RESENDS)
      throw new ApiError(
        'RATE_LIMITED',
        `The code of this challenge was already re-sent ${MAX_RESENDS} times: wait for it, or start a new challenge once this one expires`,
        {
          retryAfterSeconds: Math.max(1, Math.ceil((row.expires_at.getTime() - now.getTime()) / 1000)),
          details: { resendCount: resent, maxResends: MAX_RESENDS },
        },
      );
    if (row.code_sent_at && waitMs > 0)
      throw new ApiError(
        'RATE_LIMITED',
        `The code was sent less than ${RESEND_INTERVAL_MS / 1000} seconds ago: retry later`,
        {
          retryAfterSeconds: Math.ceil(waitMs / 1000),
          details: { resendCount: resent, maxResends: MAX_RESENDS },
        },
      );
    // Only the code's MAC is kept: a re-send draws a new code (the earlier one stops working) and
    // counts as a code issued (OneTimeCodeLimits). A challenge from before keeps its sealed code.
    let code: string;
    if (row.sms_code_mac) {
      await this.limits.issue(m, smsSubjects(customer));
      code = this.config.SANDBOX ? SANDBOX_SMS_CODE : newOneTimeCode(6);
      await m.query(`UPDATE sca_challenges SET sms_code_mac = $2 WHERE id = $1 AND platform_id = $3`, [
        row.id,
        oneTimeCodeDigest(await this.codeKey.current(), code, row.id),
        customer.platformId,
      ]);
    } else code = this.box.open(row.sms_code!);
    await m.query(
      `UPDATE sca_challenges SET code_sent_at = $2, resend_count = resend_count + 1 WHERE id = $1 AND platform_id = $3`,
      [row.id, now, customer.platformId],
    );
    await this.sms.send({ to: customer.phoneNumber, purpose: row.purpose, code });
  }

  /**
   * Checks `proof` against a customer's challenge, then runs `onSuccess`, all in one transaction:
   * `load` finds, in that transaction, the customer, the target and the challenge (`challengeId`
   * when given, else the latest one issued for the target; optionally only of `factor`), and runs
   * the caller's preconditions, so nothing commits before the proof is checked (the request's
   * audit event is written with the change, never by an earlier read). A wrong answer counts (five
   * lock the challenge) and is committed before the error is answered; an expired, used, locked or
   * foreign challenge is refused.
   */
  async authorize<T>(
    load: (m: EntityManager) => Promise<ChallengeLookup>,
    proof: ScaProof,
    onSuccess: (
      m: EntityManager,
      challenge: { id: string; enrollmentSecret: string | null; registered?: StoredPasskey },
    ) => Promise<T>,
  ): Promise<T> {
    const outcome = await this.tx.run(async (m) => {
      const { customer, target, challengeId, factor } = await load(m);
      const row = await this.lockChallenge(m, customer, target, challengeId, factor);
      if (target.binding !== undefined && !sameSecret(row.binding, digest(target.binding)))
        throw challengeRefused('UNKNOWN', 'This challenge was issued for something else');
      if (row.status === 'USED')
        throw challengeRefused('USED', 'This challenge was already satisfied: it is single use');
      if (row.status === 'LOCKED')
        throw challengeRefused('LOCKED', 'Too many wrong answers locked this challenge: start a new one');
      const now = this.clock.now();
      if (row.expires_at.getTime() <= now.getTime())
        throw challengeRefused('EXPIRED', `This challenge expired at ${row.expires_at.toISOString()}`);
      const sms = row.factor === 'SMS_OTP' && !proof.passkeyAssertion && row.purpose !== ENROLL_PASSKEY;
      if (sms) await this.limits.guard(m, smsSubjects(customer));
      const checked = await this.check(m, customer, row, proof, now);
      const problem = typeof checked === 'string' ? checked : null;
      if (problem) {
        const failed = row.failed_attempts + 1;
        await m.query(
          `UPDATE sca_challenges SET failed_attempts = $2, status = $3 WHERE id = $1 AND platform_id = $4`,
          [row.id, failed, failed >= MAX_FAILED_ATTEMPTS ? 'LOCKED' : 'PENDING', customer.platformId],
        );
        const locked = sms ? await this.limits.failure(m, smsSubjects(customer)) : null;
        noteAuditRefusal(); // the count commits, the request is a failure (its 400 is recorded)
        if (locked) return new Refusal(locked);
        return new Refusal(
          challengeRefused(
            failed >= MAX_FAILED_ATTEMPTS ? 'LOCKED' : 'WRONG_PROOF',
            failed >= MAX_FAILED_ATTEMPTS
              ? `${problem}; that was the ${MAX_FAILED_ATTEMPTS}th wrong answer: the challenge is locked`
              : problem,
            { failedAttempts: failed, remainingAttempts: MAX_FAILED_ATTEMPTS - failed },
          ),
        );
      }
      await m.query(`UPDATE sca_challenges SET status = 'USED', used_at = $2 WHERE id = $1 AND platform_id = $3`, [
        row.id,
        now,
        customer.platformId,
      ]);
      if (sms) await this.limits.success(m, smsSubjects(customer));
      return {
        value: await onSuccess(m, {
          id: row.id,
          enrollmentSecret: row.enrollment_secret ? this.box.open(row.enrollment_secret) : null,
          ...(checked && typeof checked === 'object' ? { registered: checked } : {}),
        }),
      };
    });
    if (outcome instanceof Refusal) throw outcome.error;
    return outcome.value;
  }

  private async lockChallenge(
    m: EntityManager,
    customer: { id: string; platformId: string },
    target: { purpose: string; subject: string },
    challengeId: string | null,
    factor?: ScaFactor,
  ): Promise<ChallengeRow> {
    const columns = `id, customer_id, purpose, subject, binding, factor, available_factors, sms_code, enrollment_secret,
      webauthn_challenge, failed_attempts, status, expires_at, sms_code_mac`;
    const rows = challengeId
      ? await m.query<ChallengeRow[]>(
          `SELECT ${columns} FROM sca_challenges
             WHERE id = $1 AND customer_id = $2 AND platform_id = $5 AND purpose = $3 AND subject = $4 FOR UPDATE`,
          [challengeId, customer.id, target.purpose, target.subject, customer.platformId],
        )
      : await m.query<ChallengeRow[]>(
          `SELECT ${columns} FROM sca_challenges
             WHERE customer_id = $1 AND platform_id = $5 AND purpose = $2 AND subject = $3
               AND ($4::text IS NULL OR factor = $4)
             ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
          [customer.id, target.purpose, target.subject, factor ?? null, customer.platformId],
        );
    const row = rows[0];
    if (!row)
      throw challengeRefused(
        'UNKNOWN',
        challengeId
          ? `Challenge ${formatId('ScaChallenge', challengeId)} is not this customer's challenge for this operation`
          : 'No challenge was started for this operation: start one first',
      );
    return row;
  }

  /**
   * Why the proof does not satisfy the challenge, or null when it does (factor state updated); a
   * passkey registration that verifies answers the credential to store.
   */
  private async check(
    m: EntityManager,
    customer: CustomerEntity,
    row: ChallengeRow,
    proof: ScaProof,
    now: Date,
  ): Promise<string | null | StoredPasskey> {
    if (row.purpose === ENROLL_PASSKEY) {
      const origin = proof.origin ?? '';
      if (!proof.registration || !row.webauthn_challenge) return "A passkey enrollment needs the device's credential";
      if (!this.settings.passkeyOrigins.includes(origin)) return `The origin ${JSON.stringify(origin)} is not allowed`;
      const registered = await verifyRegistration(
        proof.registration,
        row.webauthn_challenge,
        origin,
        this.settings.relyingPartyId,
      );
      return registered ?? 'The passkey credential does not verify for this enrollment';
    }
    if (proof.passkeyAssertion) {
      if (row.factor !== 'PASSKEY' || !row.webauthn_challenge) return 'This challenge is not for a passkey';
      const origin = proof.origin ?? '';
      if (!this.settings.passkeyOrigins.includes(origin)) return `The origin ${JSON.stringify(origin)} is not allowed`;
      const rows = await this.factors(m, customer, true);
      const passkey = this.passkeyOf(rows);
      if (!passkey) return 'The customer has no passkey enrolled';
      const counter = await verifyAssertion(
        proof.passkeyAssertion,
        row.webauthn_challenge,
        origin,
        this.settings.relyingPartyId,
        passkey,
      );
      if (counter === null) return 'The passkey assertion does not verify for this challenge';
      await m.query(
        `UPDATE sca_factors SET counter = $2 WHERE customer_id = $1 AND platform_id = $3 AND factor = 'PASSKEY'`,
        [customer.id, counter, customer.platformId],
      );
      return null;
    }
    const code = proof.code ?? '';
    if (row.factor === 'SMS_OTP') {
      if (row.sms_code_mac)
        return oneTimeCodeMatches(await this.codeKey.current(), code, row.id, row.sms_code_mac)
          ? null
          : 'The code is not the one sent by SMS';
      if (!row.sms_code) return 'This challenge has no code';
      return sameSecret(this.box.open(row.sms_code), code) ? null : 'The code is not the one sent by SMS';
    }
    if (row.factor === 'TOTP') {
      const secret = row.enrollment_secret ? this.box.open(row.enrollment_secret) : null;
      if (secret) return (await verifyTotp(secret, code, now, null)) === null ? 'The TOTP code is wrong' : null;
      const totp = (await this.factors(m, customer, true)).find((r) => r.factor === 'TOTP');
      if (!totp?.totp_secret) return 'The customer has no TOTP factor enrolled';
      const last = totp.totp_last_step === null ? null : Number(totp.totp_last_step);
      const step = await verifyTotp(this.box.open(totp.totp_secret), code, now, last);
      if (step === null) return 'The TOTP code is wrong, or was already used';
      await m.query(`UPDATE sca_factors SET totp_last_step = $2 WHERE id = $1 AND platform_id = $3`, [
        totp.id,
        step,
        customer.platformId,
      ]);
      return null;
    }
    return 'A passkey challenge needs passkeyAssertion and origin';
  }
}
