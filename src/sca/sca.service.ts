import { noteAuditResource } from '../audit/audit-trail.js';
import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type BusinessTime, Clock, later } from '../common/clock.js';
import { formatId, isUuid, newUuid } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { UNIQUE_VIOLATION } from '../database/queries.js';
import { ApiError } from '../errors/api-error.js';
import { SecretBox } from '../secrets/secret-box.js';
import { newTotpSecret, registrationOptions } from './factor-proofs.js';
import {
  ENROLL_PASSKEY,
  ENROLL_TOTP,
  LOGIN,
  factorNotEnrolled,
  ScaChallengesService,
  type ScaFactor,
  type ScaProof,
} from './sca-challenges.service.js';
import { ScaCustomers } from './sca-customers.js';
import { ENROLLMENT_TTL_MS, RESET_TTL_MS, ScaSettings, SESSION_TTL_MS } from './sca-settings.js';

export interface ScaFactorView {
  factor: ScaFactor;
  credentialId?: string;
  name?: string;
}

/** The reference's lockout ladder for FAILED_LOGIN_ATTEMPT: attempts → minutes locked (9+: suspended). */
const LOCKOUT_MINUTES: Record<number, number> = { 5: 15, 6: 30, 7: 60, 8: 24 * 60 };

interface LoginState {
  failed_attempts: number;
  /** BUSINESS due time (src/common/schedules.ts). */
  locked_until: BusinessTime | null;
  suspended: boolean;
}

/**
 * SCA factors (list, enroll, confirm, delete), logins and sessions, security events and factor
 * resets (reference `/sca/*`). Every call first checks the customer is in an SCA region (409
 * otherwise); proofs are checked by ScaChallengesService.
 */
@Injectable()
export class ScaService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly customers: ScaCustomers,
    private readonly challenges: ScaChallengesService,
    private readonly settings: ScaSettings,
  ) {}

  async listFactors(platformId: string, customerId: string): Promise<{ factors: ScaFactorView[] }> {
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const factors: ScaFactorView[] = customer.phoneNumber ? [{ factor: 'SMS_OTP' }] : [];
      for (const row of await this.challenges.factors(m, customer))
        factors.push(
          row.factor === 'PASSKEY'
            ? { factor: 'PASSKEY', credentialId: row.credential_id!, name: 'Passkey' }
            : { factor: 'TOTP', name: 'Authenticator app' },
        );
      return { factors };
    });
  }

  async startEnrollment(platformId: string, customerId: string, type: 'TOTP' | 'PASSKEY') {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const enrolled = await this.challenges.factors(m, customer);
      if (type === 'PASSKEY') {
        if (enrolled.some((r) => r.factor === 'PASSKEY'))
          throw new ApiError(
            'PASSKEY_ALREADY_ENROLLED',
            'The customer already has a passkey: only one per customer, delete it before enrolling another',
          );
        const options = await registrationOptions(
          this.settings.relyingPartyId,
          customer.id,
          customer.email ?? formatId('Customer', customer.id),
          new Uint8Array(randomBytes(32)),
        );
        await this.challenges.issue(
          m,
          customer,
          { purpose: ENROLL_PASSKEY, subject: 'enrollment', binding: 'enrollment' },
          'PASSKEY',
          { webauthnChallenge: options.challenge, ttlMs: ENROLLMENT_TTL_MS },
        );
        return {
          type: 'PASSKEY' as const,
          options: options as unknown as Record<string, unknown>,
          allowedOrigins: [...this.settings.passkeyOrigins],
          relyingPartyId: this.settings.relyingPartyId,
        };
      }
      if (enrolled.some((r) => r.factor === 'TOTP'))
        throw new ApiError('CONFLICT', 'The customer already has a TOTP factor: reset it before enrolling another');
      const { secret, uri } = newTotpSecret(customer.email ?? formatId('Customer', customer.id));
      await m.query(
        `INSERT INTO sca_challenges (id, platform_id, customer_id, purpose, subject, binding, factor, available_factors,
           enrollment_secret, failed_attempts, status, expires_at, created_at)
         VALUES ($1, $2, $3, $4, 'enrollment', $5, 'TOTP', '{TOTP}', $6, 0, 'PENDING', $7, $8)`,
        [
          newUuid(),
          platformId,
          customer.id,
          ENROLL_TOTP,
          createHash('sha256').update(secret).digest('hex'),
          this.box.seal(secret),
          later(this.clock.now(), ENROLLMENT_TTL_MS),
          this.clock.now(),
        ],
      );
      return { type: 'TOTP' as const, secret, secretBase32Encoded: secret, totpUri: uri };
    });
  }

  async confirmEnrollment(
    platformId: string,
    customerId: string,
    body: { type: 'TOTP'; secret: string; code: string } | { type: 'PASSKEY'; origin: string; credential: object },
  ) {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    const find = (m: EntityManager) => this.customers.findScaCustomer(m, platformId, customerId);
    if (body.type === 'TOTP') {
      return this.challenges.authorize(
        async (m) => ({
          customer: await find(m),
          target: { purpose: ENROLL_TOTP, subject: 'enrollment', binding: body.secret },
          challengeId: null,
        }),
        { code: body.code },
        async (m, challenge) => {
          const recoveryCodes = Array.from({ length: 8 }, () =>
            randomBytes(6)
              .toString('hex')
              .toUpperCase()
              .replace(/(.{4})(.{4})(.{4})/, '$1-$2-$3'),
          );
          await this.insertFactor(m, platformId, customerId, 'TOTP', {
            totp_secret: this.box.seal(challenge.enrollmentSecret!),
          });
          return { type: 'TOTP' as const, recoveryCodes };
        },
      );
    }
    return this.challenges.authorize(
      async (m) => ({
        customer: await find(m),
        target: { purpose: ENROLL_PASSKEY, subject: 'enrollment' },
        challengeId: null,
      }),
      { origin: body.origin, registration: body.credential as Record<string, unknown> },
      async (m, challenge) => {
        const passkey = challenge.registered!;
        await this.insertFactor(m, platformId, customerId, 'PASSKEY', {
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports,
        });
        return {
          type: 'PASSKEY' as const,
          factor: { factor: 'PASSKEY' as const, credentialId: passkey.credentialId, name: 'Passkey' },
        };
      },
    );
  }

  private async insertFactor(
    m: EntityManager,
    platformId: string,
    customerId: string,
    factor: 'TOTP' | 'PASSKEY',
    values: Record<string, unknown>,
  ): Promise<void> {
    const columns = Object.keys(values);
    try {
      await m.query('SAVEPOINT sca_factor');
      await m.query(
        `INSERT INTO sca_factors (id, platform_id, customer_id, factor, created_at, ${columns.join(', ')})
         VALUES ($1, $2, $3, $4, $5, ${columns.map((_, i) => `$${i + 6}`).join(', ')})`,
        [newUuid(), platformId, customerId, factor, this.clock.now(), ...Object.values(values)],
      );
      await m.query('RELEASE SAVEPOINT sca_factor');
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await m.query('ROLLBACK TO SAVEPOINT sca_factor');
      throw factor === 'PASSKEY'
        ? new ApiError(
            'PASSKEY_ALREADY_ENROLLED',
            'The customer already has a passkey (or this credential is registered)',
          )
        : new ApiError('CONFLICT', 'The customer already has a TOTP factor');
    }
  }

  async deleteFactor(platformId: string, customerId: string, credentialId: string): Promise<void> {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    await this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const passkey = (await this.challenges.factors(m, customer, true)).find(
        (r) => r.factor === 'PASSKEY' && r.credential_id === credentialId,
      );
      if (!passkey) throw new ApiError('NOT_FOUND', 'No enrolled factor of this customer has this credential id');
      await m.query(`DELETE FROM sca_factors WHERE id = $1 AND platform_id = $2`, [passkey.id, platformId]);
    });
  }

  async startLogin(platformId: string, customerId: string, factor: ScaFactor) {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const { view, passkeyOptions } = await this.challenges.issue(
        m,
        customer,
        { purpose: LOGIN, subject: 'login', binding: 'login' },
        factor,
      );
      if (factor === 'SMS_OTP') return { factor, challengeId: view.id, expiresAt: view.expiresAt };
      if (factor === 'PASSKEY')
        return {
          factor,
          passkeyOptions,
          allowedOrigins: [...this.settings.passkeyOrigins],
          relyingPartyId: this.settings.relyingPartyId,
        };
      return { factor };
    });
  }

  async completeLogin(
    platformId: string,
    customerId: string,
    body: { factor: ScaFactor; endUserIpAddress: string; challengeId: string | null } & ScaProof,
  ) {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    return this.challenges.authorize(
      async (m) => {
        const customer = await this.customers.findScaCustomer(m, platformId, customerId);
        this.refuseLocked(await this.loginState(m, platformId, customer.id));
        return {
          customer,
          target: { purpose: LOGIN, subject: 'login' },
          challengeId: body.challengeId,
          ...(body.challengeId ? {} : { factor: body.factor }),
        };
      },
      body,
      async (m) => {
        const now = this.clock.now();
        const expiresAt = later(now, SESSION_TTL_MS);
        await m.query(
          `INSERT INTO sca_sessions (id, platform_id, customer_id, factor, end_user_ip, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [newUuid(), platformId, customerId, body.factor, body.endUserIpAddress, now, expiresAt],
        );
        return { status: 'SUCCESS', sessionExpiresAt: expiresAt.toISOString() };
      },
    );
  }

  /** 409 SCA_SESSION_REQUIRED unless the customer has a live SCA login session (on the platform's clock). */
  async requireSession(m: EntityManager, platformId: string, customerId: string): Promise<void> {
    const rows = await m.query<unknown[]>(
      `SELECT 1 FROM sca_sessions
        WHERE customer_id = $1 AND platform_id = $3 AND revoked_at IS NULL AND expires_at > $2 LIMIT 1`,
      [customerId, this.clock.now(), platformId],
    );
    if (rows.length === 0)
      throw new ApiError(
        'SCA_SESSION_REQUIRED',
        "The customer's SCA login session is missing or expired: re-authenticate the customer (POST /sca/login/start, /sca/login/complete), then retry",
      );
  }

  private async loginState(m: EntityManager, platformId: string, customerId: string): Promise<LoginState> {
    const rows = await m.query<LoginState[]>(
      `SELECT failed_attempts, locked_until, suspended FROM sca_login_states
        WHERE customer_id = $1 AND platform_id = $2 FOR UPDATE`,
      [customerId, platformId],
    );
    return rows[0] ?? { failed_attempts: 0, locked_until: null, suspended: false };
  }

  private refuseLocked(state: LoginState): void {
    const now = this.clock.now();
    if (state.suspended || (state.locked_until && state.locked_until.getTime() > now.getTime()))
      throw new ApiError('ACCOUNT_LOCKED', "The customer's login is locked after failed attempts", {
        details: {
          suspended: state.suspended,
          lockedUntil: state.suspended ? null : state.locked_until!.toISOString(),
          failedAttempts: state.failed_attempts,
        },
      });
  }

  async recordEvent(
    platformId: string,
    customerId: string,
    eventType: 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT',
  ) {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const now = this.clock.now();
      let state: LoginState = { failed_attempts: 0, locked_until: null, suspended: false };
      if (eventType === 'RESET_PASSWORD_COMPLETED') {
        await m.query(
          `UPDATE sca_sessions SET revoked_at = $2 WHERE customer_id = $1 AND platform_id = $3 AND revoked_at IS NULL`,
          [customer.id, now, platformId],
        );
      } else {
        const failed = (await this.loginState(m, platformId, customer.id)).failed_attempts + 1;
        const minutes = LOCKOUT_MINUTES[failed];
        state = {
          failed_attempts: failed,
          suspended: failed >= 9,
          locked_until: minutes ? later(now, minutes * 60_000) : null,
        };
      }
      await m.query(
        `INSERT INTO sca_login_states (customer_id, platform_id, failed_attempts, locked_until, suspended, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (customer_id, platform_id) DO UPDATE SET failed_attempts = $3, locked_until = $4, suspended = $5, updated_at = $6`,
        [customer.id, platformId, state.failed_attempts, state.locked_until, state.suspended, now],
      );
      return {
        eventType,
        suspended: state.suspended,
        lockedUntil: state.locked_until?.toISOString() ?? null,
        failedAttempts: state.failed_attempts,
      };
    });
  }

  /**
   * Starts a factor reset. The sandbox has no liveness provider: the check passes at once
   * (`LIVENESS_PASSED`), so the reset can be completed right away.
   */
  async startReset(platformId: string, customerId: string, factor: ScaFactor) {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const enrolled = await this.challenges.factors(m, customer);
      if (factor !== 'SMS_OTP' && !enrolled.some((r) => r.factor === factor))
        throw factorNotEnrolled(`The customer has no ${factor} factor to reset`);
      const now = this.clock.now();
      const [{ count }] = await m.query<Array<{ count: number }>>(
        `SELECT count(*)::int AS count FROM sca_factor_resets
          WHERE customer_id = $1 AND platform_id = $3 AND created_at > $2`,
        [customer.id, later(now, -24 * 3600_000), platformId],
      );
      if (count >= 5)
        throw new ApiError('RATE_LIMITED', 'Factor resets are limited to 5 per 24 hours per customer', {
          retryAfterSeconds: 3600,
        });
      const id = newUuid();
      const expiresAt = later(now, RESET_TTL_MS);
      await m.query(
        `INSERT INTO sca_factor_resets (id, platform_id, customer_id, factor, status, expires_at, created_at)
         VALUES ($1, $2, $3, $4, 'LIVENESS_PASSED', $5, $6)`,
        [id, platformId, customer.id, factor, expiresAt, now],
      );
      return { resetId: id, expiresAt: expiresAt.toISOString() };
    });
  }

  async resetStatus(platformId: string, customerId: string, resetId: string) {
    return this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const row = await this.findReset(m, platformId, customer.id, resetId, false);
      return {
        status: this.resetStatusOf(row),
        factor: row.factor,
        enrollmentStatus: row.factor === 'SMS_OTP' ? null : 'PENDING',
        expiresAt: row.expires_at.toISOString(),
        completedAt: row.completed_at?.toISOString() ?? null,
      };
    });
  }

  async completeReset(platformId: string, customerId: string, resetId: string): Promise<void> {
    noteAuditResource(formatId('Customer', customerId)); // the customer is a query parameter
    await this.tx.run(async (m) => {
      const customer = await this.customers.findScaCustomer(m, platformId, customerId);
      const row = await this.findReset(m, platformId, customer.id, resetId, true);
      if (this.resetStatusOf(row) !== 'LIVENESS_PASSED')
        throw new ApiError('INVALID_INPUT', `This reset is ${this.resetStatusOf(row)}: it cannot be completed`, {
          details: { resetStatus: this.resetStatusOf(row) },
        });
      if (row.factor !== 'SMS_OTP')
        await m.query(`DELETE FROM sca_factors WHERE customer_id = $1 AND platform_id = $3 AND factor = $2`, [
          customer.id,
          row.factor,
          platformId,
        ]);
      await m.query(
        `UPDATE sca_factor_resets SET status = 'COMPLETED', completed_at = $2 WHERE id = $1 AND platform_id = $3`,
        [row.id, this.clock.now(), platformId],
      );
    });
  }

  private resetStatusOf(row: { status: string; expires_at: Date }): string {
    return row.status !== 'COMPLETED' && row.expires_at.getTime() <= this.clock.now().getTime()
      ? 'EXPIRED'
      : row.status;
  }

  private async findReset(m: EntityManager, platformId: string, customerId: string, resetId: string, lock: boolean) {
    const uuid = isUuid(resetId) ? resetId : null;
    const rows = uuid
      ? await m.query<
          Array<{ id: string; factor: ScaFactor; status: string; expires_at: Date; completed_at: Date | null }>
        >(
          `SELECT id, factor, status, expires_at, completed_at FROM sca_factor_resets
           WHERE id = $1 AND customer_id = $2 AND platform_id = $3${lock ? ' FOR UPDATE' : ''}`,
          [uuid, customerId, platformId],
        )
      : [];
    if (!rows[0]) throw new ApiError('NOT_FOUND', 'No such factor reset for this customer');
    return rows[0];
  }
}
