import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager } from 'typeorm';
import { changeStatement, type ChangeStatement } from '../database/transaction.service.js';
import { ApiError, type ErrorCode } from '../errors/api-error.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** Records are honoured for 24 hours; an older key may be used again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotentOutcome {
  replayed: boolean;
  status: number;
  body: unknown;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * One statement: takes the key's transaction lock (without waiting) and reads its record. The
 * snapshot precedes the lock, so a record committed in between is caught by `record`'s ON CONFLICT.
 */
const BEGIN_SQL = `
  SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked,
    k.fingerprint, k.response_status, k.response_body, k.created_at
  FROM (SELECT 1) AS one LEFT JOIN idempotency_keys k ON k.platform_id = $2 AND k.key = $3`;

const FIND_SQL = `SELECT fingerprint, response_status, response_body, created_at FROM idempotency_keys
  WHERE platform_id = $1 AND key = $2`;
const FORGET_SQL = `DELETE FROM idempotency_keys WHERE platform_id = $1 AND key = $2 AND created_at <= $3`;

interface BeginRow {
  locked: boolean;
  fingerprint: string | null;
  response_status: number;
  response_body: unknown;
  created_at: Date;
}

/**
 * The columns a one-statement idempotent effect (`withIdempotencyRecord`) answers beside the
 * effect's own: the key's prior record, when one was committed before the statement began.
 */
export interface PriorRecordColumns {
  idempotency_fingerprint: string | null;
  idempotency_status: number | null;
  idempotency_body: unknown;
  idempotency_created_at: Date | null;
}

/** Put in the effect's WHERE by a one-statement idempotent effect: true when the key has no record. */
export const IDEMPOTENCY_GATE = 'NOT EXISTS (SELECT 1 FROM idempotency_prior)';

/**
 * Wraps `effect`, one INSERT/UPDATE ... RETURNING that yields at most one row and has
 * `IDEMPOTENCY_GATE` in its WHERE, so the request's idempotency record is written by the same
 * statement, for the row the effect returned (no row, no record). Parameters `$n` to `$n+4` are
 * `IdempotentStatement.params` (platform, key, fingerprint, status, time); `sealedBody` is the
 * stored body's SQL (jsonb): a parameter holding `IdempotentStatement.seal(body)`, or a CASE over
 * the effect's columns (`effect.<column>`) choosing among such parameters.
 *
 * The answer is always one row: the effect's columns (null when it did nothing) and the
 * `PriorRecordColumns` (null when the key was free). A record committed meanwhile (a concurrent
 * request with this key) makes the INSERT of the record fail with a unique violation, which rolls
 * the whole statement back; the interceptor then answers from that record.
 */
export function withIdempotencyRecord(effect: string, n: number, sealedBody: string): string {
  return idempotentChange(effect, n, sealedBody).text;
}

/** `withIdempotencyRecord` as a ChangeStatement (for TransactionService.change): `effect` is what changed. */
export function idempotentChange(effect: string, n: number, sealedBody: string): ChangeStatement {
  const [platform, key, fingerprint, status, at] = [0, 1, 2, 3, 4].map((i) => `$${n + i}`);
  return changeStatement(
    `idempotency_prior AS (
    SELECT fingerprint, response_status, response_body, created_at FROM idempotency_keys
    WHERE platform_id = ${platform}::uuid AND key = ${key}::text
  ), effect AS (${effect}
  ), idempotency_record AS (
    INSERT INTO idempotency_keys (platform_id, key, fingerprint, response_status, response_body, created_at)
    SELECT ${platform}::uuid, ${key}::text, ${fingerprint}::text, ${status}::int, ${sealedBody}, ${at}::timestamptz
    FROM effect
  )`,
    `SELECT effect.*, p.fingerprint AS idempotency_fingerprint, p.response_status AS idempotency_status,
    p.response_body AS idempotency_body, p.created_at AS idempotency_created_at
  FROM (SELECT 1) AS one LEFT JOIN effect ON true LEFT JOIN idempotency_prior p ON true`,
    'effect',
  );
}

/** What a one-statement handler needs to write its request's idempotency record. */
export interface IdempotentStatement {
  /** `$n` to `$n+4` of `withIdempotencyRecord`. */
  readonly params: readonly [string, string, string, number, Date];
  /** The stored form of `body` (a parameter for `sealedBody`). */
  seal(body: unknown): string | null;
  /**
   * Reads the statement's answer: throws the replay (or CONFLICT) when the key had a record, and
   * notes that the record was written when the effect returned a row (`done`).
   */
  settle(row: PriorRecordColumns, done: boolean): void;
}

/** The state of one request that holds an `Idempotency-Key`, kept while its handler runs. */
interface KeyedRequest {
  platformId: string;
  key: string;
  fingerprint: string;
  status: number;
  /** The handler wrote the record in its own statement (one-statement routes). */
  recorded: boolean;
}

/** Thrown through the handler when a one-statement effect found the key's record: the interceptor answers it. */
export class PriorRecord extends Error {
  constructor(
    readonly fingerprint: string,
    readonly status: number,
    readonly body: unknown,
    readonly createdAt: Date,
  ) {
    super('idempotency record found');
  }
}

const keyed = new AsyncLocalStorage<KeyedRequest>();

export const inProgress = () =>
  new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress', {
    retryable: true,
    retryAfterSeconds: 1,
  });

/**
 * Idempotency-Key rules, scoped per platform:
 * - same key, same method/path/body: the first (successful) response is replayed;
 * - same key, different request: 409 CONFLICT;
 * - same key while the first request is still running: 409 CONFLICT, retryable.
 * Failed requests roll back and leave no record, so they may be retried with the same key.
 * Every stored response body is sealed by `SecretBox` (AES-256-GCM, src/secrets/): a replay may
 * carry a secret (`POST /tokens` answers a `clientSecret`), and no secret rests in plain text.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'idempotency_keys.response_body',
      table: 'idempotency_keys',
      keys: ['platform_id', 'key'],
      value: `response_body->>'${SEALED}'`,
      assign: (param) => `response_body = jsonb_build_object('${SEALED}', ${param}::text)`,
    });
  }

  fingerprint(method: string, path: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${path}\n${canonicalJson(body)}`)
      .digest('hex');
  }

  /** Inside the operation's transaction: takes the key's lock, and returns a replay if one is due. */
  async begin(
    m: EntityManager,
    platformId: string,
    key: string,
    fingerprint: string,
    /** The 409's code when the key was used for another request. */
    conflict: ErrorCode = 'CONFLICT',
  ): Promise<IdempotentOutcome | null> {
    const [row] = await m.query<BeginRow[]>(BEGIN_SQL, [`idem:${platformId}:${key}`, platformId, key]);
    if (!row.locked) {
      throw inProgress();
    }
    if (row.fingerprint === null) return null;
    const prior = new PriorRecord(row.fingerprint, row.response_status, row.response_body, row.created_at);
    const outcome = this.answer(prior, fingerprint, conflict);
    if (outcome === null) await m.delete(IdempotencyKeyEntity, { platformId, key });
    return outcome;
  }

  /**
   * What a request with `fingerprint` gets from the key's record `prior`: its replay, 409 CONFLICT
   * (another request used the key), or null when the record has expired (the key is free again).
   */
  answer(prior: PriorRecord, fingerprint: string, conflict: ErrorCode = 'CONFLICT'): IdempotentOutcome | null {
    if (this.clock.now().getTime() - prior.createdAt.getTime() > IDEMPOTENCY_TTL_MS) return null;
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError(conflict, 'This Idempotency-Key was used with a different request');
    }
    return { replayed: true, status: prior.status, body: this.openBody(prior.body) };
  }

  /** The key's committed record, read anew (after a one-statement effect failed or raced), or null. */
  async find(m: EntityManager, platformId: string, key: string): Promise<PriorRecord | null> {
    const [row] = await m.query<BeginRow[]>(FIND_SQL, [platformId, key]);
    return row ? new PriorRecord(row.fingerprint!, row.response_status, row.response_body, row.created_at) : null;
  }

  /** Deletes the key's record `prior` once it has expired (a concurrent request may have done it already). */
  async forget(m: EntityManager, platformId: string, key: string, prior: PriorRecord): Promise<void> {
    await m.query(FORGET_SQL, [platformId, key, prior.createdAt]);
  }

  /**
   * Runs `work` (a one-statement route's handler) as the request holding `key`: inside it,
   * `statement()` gives what `withIdempotencyRecord` needs. Answers whether the record was written.
   */
  async keyed<T>(
    request: Omit<KeyedRequest, 'recorded'>,
    work: () => Promise<T>,
  ): Promise<{ value: T; recorded: boolean }> {
    const state: KeyedRequest = { ...request, recorded: false };
    const value = await keyed.run(state, work);
    return { value, recorded: state.recorded };
  }

  /**
   * For a one-statement idempotent route (`@Idempotent({ oneStatement: true })`): what its effect
   * statement needs to write the record with `withIdempotencyRecord`; null when the request holds
   * no key (the handler then runs its plain statement).
   */
  statement(): IdempotentStatement | null {
    const state = keyed.getStore();
    if (!state) return null;
    return {
      params: [state.platformId, state.key, state.fingerprint, state.status, this.clock.now()],
      seal: (body) => this.sealBody(body),
      settle: (row, done) => {
        if (row.idempotency_fingerprint !== null) {
          throw new PriorRecord(
            row.idempotency_fingerprint,
            row.idempotency_status ?? 0,
            row.idempotency_body,
            row.idempotency_created_at ?? new Date(0),
          );
        }
        if (done) state.recorded = true;
      },
    };
  }

  async record(
    m: EntityManager,
    platformId: string,
    key: string,
    fingerprint: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    const inserted = await m.query<unknown[]>(
      `INSERT INTO idempotency_keys (platform_id, key, fingerprint, response_status, response_body, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT (platform_id, key) DO NOTHING RETURNING 1`,
      [platformId, key, fingerprint, status, this.sealBody(body), this.clock.now()],
    );
    // A request with this key committed between begin's snapshot and its lock: roll this one back.
    if (inserted.length === 0) throw inProgress();
  }

  /** The stored form of a response body: `{"sealed": <SecretBox.seal of its JSON>}` (jsonb), or null. */
  private sealBody(body: unknown): string | null {
    if (body === undefined) return null;
    return JSON.stringify({ [SEALED]: this.box.seal(JSON.stringify(body)) });
  }

  /** Inverse of `sealBody`; a record stored before encryption (plain JSON) is returned as it is. */
  private openBody(stored: unknown): unknown {
    if (stored && typeof stored === 'object' && typeof (stored as Record<string, unknown>)[SEALED] === 'string') {
      return JSON.parse(this.box.open((stored as Record<string, string>)[SEALED])) as unknown;
    }
    return stored;
  }
}

/** The member of a stored response body that holds its ciphertext. */
const SEALED = 'sealed';
