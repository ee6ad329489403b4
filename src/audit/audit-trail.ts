import { Injectable, Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { isUuid } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { clientAddress } from '../common/client-address.js';
import { requestContext } from '../logging/logger.js';
import {
  Actor,
  AuditRecord,
  addResource,
  bodyFieldNames,
  canonical,
  recordValues,
  cleanText,
  newRecord,
  NIL_CHAIN,
  principalActor,
  requestResources,
} from './audit-record.js';

/**
 * Appends one event to its chain in one statement: the upsert of the chain's head row takes the
 * next sequence number and computes the link (sha256 of the previous hash and the event's
 * canonical text, in the database, so the previous hash is read under the row lock the upsert
 * holds until commit); the event row copies them.
 */
export const AUDIT_INSERT_SQL = `WITH audit_head AS (
  INSERT INTO audit_heads AS h (chain, seq, prev_hash, hash)
  VALUES ($1, 1, NULL, encode(sha256(convert_to($2, 'UTF8')), 'hex'))
  ON CONFLICT (chain) DO UPDATE
    SET seq = h.seq + 1, prev_hash = h.hash, hash = encode(sha256(convert_to(h.hash || $2, 'UTF8')), 'hex')
  RETURNING seq, prev_hash, hash
)
INSERT INTO audit_events (id, chain, seq, platform_id, created_at, actor_type, actor_id, action, resource_ids,
  status, error_code, request_id, source_address, user_agent, changed_fields, prev_hash, hash)
SELECT $3, $1, seq, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, prev_hash, hash FROM audit_head`;

/** The insert's parameters for a record. */
export function auditParameters(r: AuditRecord): unknown[] {
  return [r.platformId ?? NIL_CHAIN, canonical(r), ...recordValues(r)];
}

const CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What the audit trail knows of a route: its operationId and the status it answers on success. */
interface Operation {
  action: string;
  status: number;
}

/** What the trail keeps on a request while it is served. */
interface RequestAudit {
  /** a success event was written (in the change's transaction) */
  recorded: boolean;
  /** resources the request's changes named (noteAuditResource: what it created or changed) */
  resources: string[];
  /** who acted, on a public route where the service learns it (noteAuditActor) */
  actor?: Actor;
}

const AUDIT = Symbol('audit');
type AuditedRequest = Request & { [AUDIT]?: RequestAudit; principal?: unknown; id?: string };

/** The request being served, when it is one the trail records as a change. */
function changingRequest(): AuditedRequest | undefined {
  const req = requestContext.getStore() as AuditedRequest | undefined;
  return req && CHANGING.has(req.method) && req.route ? req : undefined;
}

/**
 * Names a resource the current request created or changed (`Customer:<uuid>`...), so its audit
 * event is found by `GET /audit-events?resourceId=`. The one call an area makes when it creates
 * (or changes, beyond the route's path parameters) a resource: call it inside the change's
 * transaction, any time before it commits (OutboxService.write calls it for every event's
 * aggregate). Does nothing outside a state-changing request. See docs/security-operations.md.
 */
export function noteAuditResource(id: string): void {
  const req = changingRequest();
  if (!req) return;
  const state = (req[AUDIT] ??= { recorded: false, resources: [] });
  addResource(state.resources, id);
}

/**
 * Names who acted on a public route once the service knows it (an agent redeeming its device
 * code), so the event lands on that platform's chain instead of the unattributed one.
 */
export function noteAuditActor(actor: { platformId: string; agentId: string }): void {
  const req = changingRequest();
  if (!req || req.principal) return;
  const state = (req[AUDIT] ??= { recorded: false, resources: [] });
  state.actor = principalActor({ kind: 'agent', ...actor }) ?? undefined;
}

/**
 * The audit trail's writer. A state-changing call's event is written by the TransactionService's
 * before-commit hook, inside the transaction of the change (no change without its event, no event
 * for a change rolled back); a refused or failed call's event by the exceptions filter, in a
 * statement of its own, before the error is sent. CLI commands record themselves (`system`).
 */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger('audit');
  private operations = new Map<string, Operation>();
  /** Off only for the bench's comparison run (AppOptions.audit = false). */
  enabled = true;

  constructor(
    private readonly tx: TransactionService,
    private readonly clock: RealClock,
  ) {
    tx.onBeforeCommit({ pending: () => this.pending() !== undefined, run: (m) => this.beforeCommit(m) });
  }

  /**
   * Learns every route's operationId from the OpenAPI document (paths without the version prefix;
   * Express's route paths have it, with `:param` for `{param}`).
   */
  useOperations(document: OpenAPIObject, prefix: string): void {
    const operations = new Map<string, Operation>();
    for (const [path, item] of Object.entries(document.paths)) {
      const expressPath = `/${prefix}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const op = item[method];
        if (!op?.operationId) continue;
        const success = Object.keys(op.responses ?? {})
          .map(Number)
          .filter((s) => s >= 200 && s < 300)
          .sort((a, b) => a - b)[0];
        operations.set(`${method.toUpperCase()} ${expressPath}`, {
          action: op.operationId,
          status: success ?? (method === 'post' ? 201 : 200),
        });
      }
    }
    this.operations = operations;
  }

  private operation(req: AuditedRequest): Operation | undefined {
    const path = (req.route as { path?: unknown } | undefined)?.path;
    return typeof path === 'string' ? this.operations.get(`${req.method} ${path}`) : undefined;
  }

  /** The current request, when it is a change whose success event is still to be written. */
  private pending(): AuditedRequest | undefined {
    if (!this.enabled) return undefined;
    const req = changingRequest();
    return req && !req[AUDIT]?.recorded && this.operation(req) ? req : undefined;
  }

  /** Writes the current request's success event in the transaction about to commit. */
  private async beforeCommit(m: EntityManager): Promise<void> {
    const req = this.pending();
    if (!req) return;
    const op = this.operation(req)!;
    const state = (req[AUDIT] ??= { recorded: false, resources: [] });
    const actor = principalActor(req.principal) ?? state.actor ?? anonymous;
    const record = this.fromRequest(req, actor, op.action, op.status, null);
    for (const id of state.resources) addResource(record.resourceIds, id);
    record.changedFields = req.method === 'DELETE' ? [] : bodyFieldNames(req);
    await m.query(AUDIT_INSERT_SQL, auditParameters(record));
    state.recorded = true;
  }

  /**
   * Records a refused or failed call: any refused authentication or permission (401, 403), and any
   * other error answer of a state-changing route. A credential the guard refused is attributed to
   * its token (and platform) when the Basic username names one. Never throws: a failure to record
   * is logged, and the answer goes out anyway.
   */
  async recordFailure(req: AuditedRequest, status: number, code: string): Promise<void> {
    if (!this.enabled || !req.route) return;
    const refusal = status === 401 || status === 403;
    if (!refusal && !CHANGING.has(req.method)) return;
    const op = this.operation(req);
    if (!op) return;
    try {
      const actor = principalActor(req.principal) ?? req[AUDIT]?.actor ?? (await this.claimedActor(req));
      const record = this.fromRequest(req, actor, op.action, status, code);
      await this.tx.query(AUDIT_INSERT_SQL, auditParameters(record));
    } catch (error) {
      this.logger.error({ err: (error as Error).message, action: op.action }, 'audit event not recorded');
    }
  }

  /** A record for a call made outside HTTP (the CLI): actor `system`. */
  async recordSystem(
    m: EntityManager | TransactionService,
    platformId: string | null,
    action: string,
    resourceIds: string[],
  ): Promise<void> {
    const record = newRecord({
      platformId,
      createdAt: this.clock.now(),
      actorType: 'system',
      actorId: 'system',
      action,
      resourceIds,
      status: 0,
      errorCode: null,
      requestId: null,
      sourceAddress: null,
      userAgent: null,
      changedFields: [],
    });
    await m.query(AUDIT_INSERT_SQL, auditParameters(record));
  }

  private fromRequest(
    req: AuditedRequest,
    actor: Actor,
    action: string,
    status: number,
    errorCode: string | null,
  ): AuditRecord {
    return newRecord({
      ...actor,
      createdAt: this.clock.now(),
      action,
      resourceIds: requestResources(req),
      status,
      errorCode,
      requestId: cleanText(req.id, 128),
      sourceAddress: cleanText(clientAddress(req), 64),
      userAgent: cleanText(req.headers['user-agent'], 256),
      changedFields: [],
    });
  }

  /** The token a refused HTTP Basic credential names by its client id (never the secret), if any. */
  private async claimedActor(req: AuditedRequest): Promise<Actor> {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Basic ([A-Za-z0-9+/=_-]{1,1024})$/i.exec(header.trim()) : null;
    if (!match) return anonymous;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const clientId = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
    if (!/^[0-9a-f]{32}$/.test(clientId)) return anonymous;
    const [row] = await this.tx.query<Array<{ id: string; platform_id: string }>>(
      'SELECT id, platform_id FROM api_tokens WHERE client_id = $1',
      [clientId],
    );
    if (!row || !isUuid(row.id)) return anonymous;
    return { platformId: row.platform_id, actorType: 'api_token', actorId: `Token:${row.id}` };
  }
}

const anonymous: Actor = { platformId: null, actorType: 'anonymous', actorId: null };
