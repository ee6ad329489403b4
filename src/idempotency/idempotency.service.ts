import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager } from 'typeorm';
import { ApiError } from '../errors/api-error.js';
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
 * Idempotency-Key rules, scoped per platform:
 * - same key, same method/path/body: the first (successful) response is replayed;
 * - same key, different request: 409 CONFLICT;
 * - same key while the first request is still running: 409 CONFLICT, retryable.
 * Failed requests roll back and leave no record, so they may be retried with the same key.
 */
@Injectable()
export class IdempotencyService {
  constructor(private readonly clock: Clock) {}

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
    const [{ locked }] = await m.query<Array<{ locked: boolean }>>(
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
      [`idem:${platformId}:${key}`],
    );
    if (!locked) {
      throw new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress', {
        retryable: true,
        retryAfterSeconds: 1,
      });
    }
    const existing = await m.findOne(IdempotencyKeyEntity, { where: { platformId, key } });
    if (!existing) return null;
    if (this.clock.now().getTime() - existing.createdAt.getTime() > IDEMPOTENCY_TTL_MS) {
      await m.delete(IdempotencyKeyEntity, { platformId, key });
      return null;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError('CONFLICT', 'This Idempotency-Key was used with a different request');
    }
    return { replayed: true, status: existing.responseStatus, body: existing.responseBody };
  }

  async record(
    m: EntityManager,
    platformId: string,
    key: string,
    fingerprint: string,
    status: number,
    body: unknown,
  ): Promise<void> {
    await m.query(
      `INSERT INTO idempotency_keys (platform_id, key, fingerprint, response_status, response_body, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [platformId, key, fingerprint, status, body === undefined ? null : JSON.stringify(body), this.clock.now()],
    );
  }
}
