import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from './clock.js';
import { ApiError } from '../errors/api-error.js';

/** The window codes issued and wrong guesses are counted in (the platform's clock). */
export const CODE_LIMIT_WINDOW_MS = 60 * 60_000;
/** Codes one subject may be issued per window; the next request locks it. */
export const MAX_CODES_PER_WINDOW = 10;
/** Wrong guesses one subject may make per window, in all (across every code issued); the last one locks it. */
export const MAX_FAILURES_PER_WINDOW = 10;
/** The first lock's length; each further lock doubles it, up to CODE_LOCK_MAX_MS. */
export const CODE_LOCK_BASE_MS = 15 * 60_000;
export const CODE_LOCK_MAX_MS = 24 * 60 * 60_000;

/**
 * What is limited: `scope` names the kind (`wallet-otp-credential`, `wallet-otp-account`,
 * `contact-code`, `contact-code-customer`, `sca-sms-customer`) and `subject` the thing (an id).
 */
export interface CodeLimitSubject {
  /** the platform whose credential, wallet or customer it is */
  platformId: string;
  scope: string;
  subject: string;
}

interface LimitRow {
  window_started_at: Date;
  issued: number;
  failures: number;
  locked_until: Date | null;
  locks: number;
}

/**
 * Limits on one-time codes that hold across re-issues (docs/security-operations.md, "One-time
 * codes"): per subject, at most MAX_CODES_PER_WINDOW codes issued and MAX_FAILURES_PER_WINDOW wrong
 * guesses per CODE_LIMIT_WINDOW_MS in all, whatever code they were made against; past either the
 * subject is locked for CODE_LOCK_BASE_MS, doubling with each further lock (up to
 * CODE_LOCK_MAX_MS) until a right code resets the ladder. While locked, issuing a code and
 * checking one (even the right one) answer 429 RATE_LIMITED with `Retry-After`. Everything is on
 * the platform's clock (`Clock`) and runs in the caller's transaction on rows locked FOR UPDATE,
 * so concurrent guesses are counted one after the other. A caller names several subjects (a
 * credential and its wallet): the first one locked refuses.
 */
@Injectable()
export class OneTimeCodeLimits {
  constructor(private readonly clock: Clock) {}

  /** Before a code is issued: 429 when a subject is locked, or (locking it) when its window's codes are spent. */
  async issue(m: EntityManager, subjects: CodeLimitSubject[]): Promise<void> {
    const now = this.clock.now();
    for (const s of subjects) {
      const row = await this.row(m, s, now);
      this.refuseLocked(row, now);
      if (row.issued >= MAX_CODES_PER_WINDOW) {
        const until = await this.lock(m, s, row, now);
        throw rateLimited(until, now, `At most ${MAX_CODES_PER_WINDOW} codes are issued per hour`);
      }
      await m.query(
        `UPDATE one_time_code_limits SET issued = issued + 1, updated_at = $3
          WHERE platform_id = $4 AND scope = $1 AND subject = $2`,
        [s.scope, s.subject, now, s.platformId],
      );
    }
  }

  /** Before a code is checked: 429 while a subject is locked (nothing is counted). */
  async guard(m: EntityManager, subjects: CodeLimitSubject[]): Promise<void> {
    const now = this.clock.now();
    for (const s of subjects) this.refuseLocked(await this.row(m, s, now), now);
  }

  /**
   * A wrong guess, counted for every subject (in the caller's transaction, which must commit it):
   * the 429 to answer when it locked one, else null.
   */
  async failure(m: EntityManager, subjects: CodeLimitSubject[]): Promise<ApiError | null> {
    const now = this.clock.now();
    let refusal: ApiError | null = null;
    for (const s of subjects) {
      const row = await this.row(m, s, now);
      if (row.failures + 1 >= MAX_FAILURES_PER_WINDOW) {
        const until = await this.lock(m, s, row, now);
        refusal ??= rateLimited(until, now, `Too many wrong codes (${MAX_FAILURES_PER_WINDOW} per hour in all)`);
      } else
        await m.query(
          `UPDATE one_time_code_limits SET failures = failures + 1, updated_at = $3
            WHERE platform_id = $4 AND scope = $1 AND subject = $2`,
          [s.scope, s.subject, now, s.platformId],
        );
    }
    return refusal;
  }

  /** A right code: the wrong guesses and the lock ladder start over (codes issued still count). */
  async success(m: EntityManager, subjects: CodeLimitSubject[]): Promise<void> {
    const now = this.clock.now();
    for (const s of subjects)
      await m.query(
        `UPDATE one_time_code_limits SET failures = 0, locks = 0, updated_at = $3
          WHERE platform_id = $4 AND scope = $1 AND subject = $2`,
        [s.scope, s.subject, now, s.platformId],
      );
  }

  /** The subject's row, locked, its window started over when it has run out. */
  private async row(m: EntityManager, s: CodeLimitSubject, now: Date): Promise<LimitRow> {
    await m.query(
      `INSERT INTO one_time_code_limits (platform_id, scope, subject, window_started_at, updated_at)
       VALUES ($4, $1, $2, $3, $3) ON CONFLICT (scope, subject, platform_id) DO NOTHING`,
      [s.scope, s.subject, now, s.platformId],
    );
    const [row] = await m.query<LimitRow[]>(
      `SELECT window_started_at, issued, failures, locked_until, locks FROM one_time_code_limits
        WHERE platform_id = $3 AND scope = $1 AND subject = $2 FOR UPDATE`,
      [s.scope, s.subject, s.platformId],
    );
    const started = new Date(row.window_started_at).getTime();
    if (now.getTime() >= started + CODE_LIMIT_WINDOW_MS) {
      await m.query(
        `UPDATE one_time_code_limits SET window_started_at = $3, issued = 0, failures = 0, updated_at = $3
          WHERE platform_id = $4 AND scope = $1 AND subject = $2`,
        [s.scope, s.subject, now, s.platformId],
      );
      return { ...row, window_started_at: now, issued: 0, failures: 0 };
    }
    return row;
  }

  private refuseLocked(row: LimitRow, now: Date): void {
    if (row.locked_until && new Date(row.locked_until).getTime() > now.getTime())
      throw rateLimited(new Date(row.locked_until), now, 'Too many codes or wrong codes: locked');
  }

  /** Locks the subject (backoff: CODE_LOCK_BASE_MS doubled per earlier lock); the window starts over when it ends. */
  private async lock(m: EntityManager, s: CodeLimitSubject, row: LimitRow, now: Date): Promise<Date> {
    const ms = Math.min(CODE_LOCK_BASE_MS * 2 ** Math.min(row.locks, 16), CODE_LOCK_MAX_MS);
    const until = new Date(now.getTime() + ms);
    await m.query(
      `UPDATE one_time_code_limits SET locked_until = $3, locks = locks + 1, issued = 0, failures = 0,
          window_started_at = $3, updated_at = $4
        WHERE platform_id = $5 AND scope = $1 AND subject = $2`,
      [s.scope, s.subject, until, now, s.platformId],
    );
    return until;
  }
}

/** 429 RATE_LIMITED with `Retry-After` (whole seconds until `until`). */
function rateLimited(until: Date, now: Date, reason: string): ApiError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new ApiError('RATE_LIMITED', `${reason}: retry in ${seconds} s (at ${until.toISOString()})`, {
    retryAfterSeconds: seconds,
    details: { retryAfterSeconds: seconds, lockedUntil: until.toISOString() },
  });
}
