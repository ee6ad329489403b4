var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { ApiError } from '../errors/api-error.js';
import { decryptSecret, encryptSecret } from '../outbox/signing/grid-signature.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';
/** Records are honoured for 24 hours; an older key may be used again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
function canonicalJson(value) {
    if (Array.isArray(value))
        return `[${value.map(canonicalJson).join(',')}]`;
    if (value && typeof value === 'object') {
        const entries = Object.entries(value)
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
export function withIdempotencyRecord(effect, n, sealedBody) {
    const [platform, key, fingerprint, status, at] = [0, 1, 2, 3, 4].map((i) => `$${n + i}`);
    return `
  WITH idempotency_prior AS (
    SELECT fingerprint, response_status, response_body, created_at FROM idempotency_keys
    WHERE platform_id = ${platform}::uuid AND key = ${key}::text
  ), effect AS (${effect}
  ), idempotency_record AS (
    INSERT INTO idempotency_keys (platform_id, key, fingerprint, response_status, response_body, created_at)
    SELECT ${platform}::uuid, ${key}::text, ${fingerprint}::text, ${status}::int, ${sealedBody}, ${at}::timestamptz
    FROM effect
  )
  SELECT effect.*, p.fingerprint AS idempotency_fingerprint, p.response_status AS idempotency_status,
    p.response_body AS idempotency_body, p.created_at AS idempotency_created_at
  FROM (SELECT 1) AS one LEFT JOIN effect ON true LEFT JOIN idempotency_prior p ON true`;
}
/** Thrown through the handler when a one-statement effect found the key's record: the interceptor answers it. */
export class PriorRecord extends Error {
    fingerprint;
    status;
    body;
    createdAt;
    constructor(fingerprint, status, body, createdAt) {
        super('idempotency record found');
        this.fingerprint = fingerprint;
        this.status = status;
        this.body = body;
        this.createdAt = createdAt;
    }
}
const keyed = new AsyncLocalStorage();
export const inProgress = () => new ApiError('CONFLICT', 'A request with this Idempotency-Key is still in progress', {
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
let IdempotencyService = class IdempotencyService {
    clock;
    key;
    constructor(config, clock) {
        this.clock = clock;
        this.key = resolveWebhookKey(config);
    }
    fingerprint(method, path, body) {
        return createHash('sha256')
            .update(`${method} ${path}\n${canonicalJson(body)}`)
            .digest('hex');
    }
    /** Inside the operation's transaction: takes the key's lock, and returns a replay if one is due. */
    async begin(m, platformId, key, fingerprint) {
        const [row] = await m.query(BEGIN_SQL, [`idem:${platformId}:${key}`, platformId, key]);
        if (!row.locked) {
            throw inProgress();
        }
        if (row.fingerprint === null)
            return null;
        const prior = new PriorRecord(row.fingerprint, row.response_status, row.response_body, row.created_at);
        const outcome = this.answer(prior, fingerprint);
        if (outcome === null)
            await m.delete(IdempotencyKeyEntity, { platformId, key });
        return outcome;
    }
    /**
     * What a request with `fingerprint` gets from the key's record `prior`: its replay, 409 CONFLICT
     * (another request used the key), or null when the record has expired (the key is free again).
     */
    answer(prior, fingerprint) {
        if (this.clock.now().getTime() - prior.createdAt.getTime() > IDEMPOTENCY_TTL_MS)
            return null;
        if (prior.fingerprint !== fingerprint) {
            throw new ApiError('CONFLICT', 'This Idempotency-Key was used with a different request');
        }
        return { replayed: true, status: prior.status, body: this.openBody(prior.body) };
    }
    /** The key's committed record, read anew (after a one-statement effect failed or raced), or null. */
    async find(m, platformId, key) {
        const [row] = await m.query(FIND_SQL, [platformId, key]);
        return row ? new PriorRecord(row.fingerprint, row.response_status, row.response_body, row.created_at) : null;
    }
    /** Deletes the key's record `prior` once it has expired (a concurrent request may have done it already). */
    async forget(m, platformId, key, prior) {
        await m.query(FORGET_SQL, [platformId, key, prior.createdAt]);
    }
    /**
     * Runs `work` (a one-statement route's handler) as the request holding `key`: inside it,
     * `statement()` gives what `withIdempotencyRecord` needs. Answers whether the record was written.
     */
    async keyed(request, work) {
        const state = { ...request, recorded: false };
        const value = await keyed.run(state, work);
        return { value, recorded: state.recorded };
    }
    /**
     * For a one-statement idempotent route (`@Idempotent({ oneStatement: true })`): what its effect
     * statement needs to write the record with `withIdempotencyRecord`; null when the request holds
     * no key (the handler then runs its plain statement).
     */
    statement() {
        const state = keyed.getStore();
        if (!state)
            return null;
        return {
            params: [state.platformId, state.key, state.fingerprint, state.status, this.clock.now()],
            seal: (body) => this.sealBody(body),
            settle: (row, done) => {
                if (row.idempotency_fingerprint !== null) {
                    throw new PriorRecord(row.idempotency_fingerprint, row.idempotency_status ?? 0, row.idempotency_body, row.idempotency_created_at ?? new Date(0));
                }
                if (done)
                    state.recorded = true;
            },
        };
    }
    async record(m, platformId, key, fingerprint, status, body) {
        const inserted = await m.query(`INSERT INTO idempotency_keys (platform_id, key, fingerprint, response_status, response_body, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT (platform_id, key) DO NOTHING RETURNING 1`, [platformId, key, fingerprint, status, this.sealBody(body), this.clock.now()]);
        // A request with this key committed between begin's snapshot and its lock: roll this one back.
        if (inserted.length === 0)
            throw inProgress();
    }
    /** The stored form of a response body: `{"sealed": <AES-256-GCM of its JSON>}` (jsonb), or null. */
    sealBody(body) {
        if (body === undefined)
            return null;
        return JSON.stringify({ [SEALED]: encryptSecret(JSON.stringify(body), this.key) });
    }
    /** Inverse of `sealBody`; a record stored before encryption (plain JSON) is returned as it is. */
    openBody(stored) {
        if (stored && typeof stored === 'object' && typeof stored[SEALED] === 'string') {
            return JSON.parse(decryptSecret(stored[SEALED], this.key));
        }
        return stored;
    }
};
IdempotencyService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        Clock])
], IdempotencyService);
export { IdempotencyService };
/** The member of a stored response body that holds its ciphertext. */
const SEALED = 'sealed';
//# sourceMappingURL=idempotency.service.js.map