import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { ApiError } from '../errors/api-error.js';
import { decryptSecret, encryptSecret } from '../outbox/signing/grid-signature.js';
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

interface BeginRow {
  locked: boolean;
  fingerprint: string | null;
  response_status: number;
  response_body: unknown;
  created_at: Date;
}

const inProgress = () =>
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
 * Every stored response body is encrypted with the key-encryption key (AES-256-GCM): a replay may
 * carry a secret (`POST /tokens` answers a `clientSecret`), and no secret rests in plain text.
 */
@Injectable()
export class IdempotencyService {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = resolveWebhookKey(config);
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
  ): Promise<IdempotentOutcome | null> {
    const [row] = await m.query<BeginRow[]>(BEGIN_SQL, [`idem:${platformId}:${key}`, platformId, key]);
    if (!row.locked) {
      throw inProgress();
    }
    if (row.fingerprint === null) return null;
    const existing = {
      fingerprint: row.fingerprint,
      responseStatus: row.response_status,
      responseBody: row.response_body,
      createdAt: row.created_at,
    };
    if (this.clock.now().getTime() - existing.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
      await m.delete(IdempotencyKeyEntity, { platformId, key });
      return null;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError('CONFLICT', 'This Idempotency-Key was used with a different request');
    }
    return { replayed: true, status: existing.responseStatus, body: this.openBody(existing.responseBody) };
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

  /** The stored form of a response body: `{"sealed": <AES-256-GCM of its JSON>}` (jsonb), or null. */
  private sealBody(body: unknown): string | null {
    if (body === undefined) return null;
    return JSON.stringify({ [SEALED]: encryptSecret(JSON.stringify(body), this.key) });
  }

  /** Inverse of `sealBody`; a record stored before encryption (plain JSON) is returned as it is. */
  private openBody(stored: unknown): unknown {
    if (stored && typeof stored === 'object' && typeof (stored as Record<string, unknown>)[SEALED] === 'string') {
      return JSON.parse(decryptSecret((stored as Record<string, string>)[SEALED], this.key)) as unknown;
    }
    return stored;
  }
}

/** The member of a stored response body that holds its ciphertext. */
const SEALED = 'sealed';
