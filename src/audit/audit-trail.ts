import { Injectable, Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { CommitRider, StatementRider, TransactionService } from '../database/transaction.service.js';
import { AuditRefusals } from './audit-refusals.js';
import { AUDIT_INSERT_SQL, auditLiteralInsert, auditParameters, auditRiderCte } from './audit-insert.js';
import { clientAddress } from '../common/client-address.js';
import { requestContext } from '../logging/logger.js';
import {
  Actor,
  AuditRecord,
  addResource,
  bodyFieldNames,
  cleanText,
  newRecord,
  principalActor,
  requestResources,
} from './audit-record.js';

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
  /** the success status, when the route answers more than one (noteAuditStatus) */
  status?: number;
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
 * The success status the current request answers, for a route with more than one (a two-step
 * route's 202 challenge, then its 200 or 204): recorded instead of the operation's first 2xx.
 */
export function noteAuditStatus(status: number): void {
  const req = changingRequest();
  if (!req) return;
  (req[AUDIT] ??= { recorded: false, resources: [] }).status = status;
}

/**
 * Says the current request's transaction, about to commit, is not its success: a refusal whose
 * bookkeeping must commit before the error is answered (an SCA challenge's counted wrong answer).
 * No success event is written for it; the error answer records the failure as for any other.
 */
export function noteAuditRefusal(): void {
  const req = changingRequest();
  if (!req) return;
  const state = (req[AUDIT] ??= { recorded: false, resources: [] });
  state.recorded = true;
}

/**
 * Names who acted on a public route once the service knows it (an agent redeeming its device
 * code), so the event lands on that platform's chain instead of the unattributed one. Without an
 * agent (a hosted page opened from a platform's link) the actor stays anonymous, on that platform.
 */
export function noteAuditActor(actor: { platformId: string; agentId?: string }): void {
  const req = changingRequest();
  if (!req || req.principal) return;
  const state = (req[AUDIT] ??= { recorded: false, resources: [] });
  state.actor =
    actor.agentId === undefined
      ? { platformId: actor.platformId, actorType: 'anonymous', actorId: null }
      : (principalActor({ kind: 'agent', ...actor }) ?? undefined);
}

/**
 * The audit trail's writer. A state-changing call's event is appended with its change: in the
 * change's own statement when the change is one (`TransactionService.change`, a CTE, in
 * autocommit), else by the TransactionService's before-commit hook in the change's transaction,
 * in the same message as its COMMIT (no change without its event, no event for a change rolled back). A refused call
 * (401, 403, 429) is counted (`AuditRefusals`: one row per window and source), any other failed
 * change is appended in a statement of its own before the error is sent. CLI commands record
 * themselves (`system`). Appends are unlinked; `AuditSealer` links them into the chains.
 */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger('audit');
  private operations = new Map<string, Operation>();
  private readonly publicOperations = new Map<string, Operation>();
  /** Off only for the bench's comparison run (AppOptions.audit = false). */
  enabled = true;

  constructor(
    private readonly tx: TransactionService,
    private readonly clock: RealClock,
    private readonly refusals: AuditRefusals,
  ) {
    tx.onBeforeCommit({
      pending: () => this.pending() !== undefined,
      run: (m) => this.beforeCommit(m),
      rider: (source, first) => this.rider(source, first),
      atCommit: () => this.atCommit(),
    });
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

  /**
   * A state-changing route outside the API's OpenAPI document that is audited all the same (a
   * counterparty's signed callback): `path` as Express has it. Its area names the platform with
   * `noteAuditActor` once it knows it.
   */
  usePublicOperation(method: 'POST', path: string, action: string, status: number): void {
    this.publicOperations.set(`${method} ${path}`, { action, status });
  }

  private operation(req: AuditedRequest): Operation | undefined {
    const path = (req.route as { path?: unknown } | undefined)?.path;
    if (typeof path !== 'string') return undefined;
    const key = `${req.method} ${path}`;
    return this.operations.get(key) ?? this.publicOperations.get(key);
  }

  /** The current request, when it is a change whose success event is still to be written. */
  private pending(): AuditedRequest | undefined {
    if (!this.enabled) return undefined;
    const req = changingRequest();
    return req && !req[AUDIT]?.recorded && this.operation(req) ? req : undefined;
  }

  /** The success event of a pending request (its operation, actor, the resources its changes named). */
  private successRecord(req: AuditedRequest): AuditRecord {
    const op = this.operation(req)!;
    const state = (req[AUDIT] ??= { recorded: false, resources: [] });
    const actor = principalActor(req.principal) ?? state.actor ?? anonymous;
    const record = this.fromRequest(req, actor, op.action, state.status ?? op.status, null);
    for (const id of state.resources) addResource(record.resourceIds, id);
    record.changedFields = req.method === 'DELETE' ? [] : bodyFieldNames(req);
    return record;
  }

  /** Writes the current request's success event in the transaction about to commit. */
  private async beforeCommit(m: EntityManager): Promise<void> {
    const req = this.pending();
    if (!req) return;
    await m.query(AUDIT_INSERT_SQL, auditParameters(this.successRecord(req)));
    req[AUDIT]!.recorded = true;
  }

  /**
   * The success event of a multi-statement change, sent in its COMMIT's message (see
   * BeforeCommitHook.atCommit): written with every resource the transaction named, at no round
   * trip of its own.
   */
  private atCommit(): CommitRider | undefined {
    const req = this.pending();
    if (!req) return undefined;
    const parameters = auditParameters(this.successRecord(req));
    return {
      sql: auditLiteralInsert(parameters),
      logged: { sql: AUDIT_INSERT_SQL, parameters },
      written: () => {
        req[AUDIT]!.recorded = true;
      },
    };
  }

  /** The success event as a CTE of the change's own statement (see BeforeCommitHook.rider). */
  private rider(source: string, first: number): StatementRider | undefined {
    const req = this.pending();
    if (!req) return undefined;
    return {
      cte: riderCte(source, first),
      parameters: auditParameters(this.successRecord(req)),
      written: () => {
        req[AUDIT]!.recorded = true;
      },
    };
  }

  /**
   * Records a refused or failed call: any refused authentication, permission or rate limit (401,
   * 403, 429: counted, see AuditRefusals), and any other error answer of a state-changing route
   * (appended). Never throws: a failure to record is logged, and the answer goes out anyway.
   */
  async recordFailure(req: AuditedRequest, status: number, code: string): Promise<void> {
    if (!this.enabled || !req.route) return;
    const refusal = status === 401 || status === 403 || status === 429;
    if (!refusal && !CHANGING.has(req.method)) return;
    const op = this.operation(req);
    if (!op) return;
    const actor = principalActor(req.principal);
    if (refusal) {
      const record = this.fromRequest(req, actor ?? anonymous, op.action, status, code);
      this.refusals.count(record, actor ? null : claimedClientId(req));
      return;
    }
    try {
      const record = this.fromRequest(req, actor ?? req[AUDIT]?.actor ?? anonymous, op.action, status, code);
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
}

/** The rider CTE's text, one per (source, first parameter): fixed texts, so they prepare once. */
const riderTexts = new Map<string, string>();
function riderCte(source: string, first: number): string {
  const key = `${source}:${first}`;
  let text = riderTexts.get(key);
  if (text === undefined) riderTexts.set(key, (text = auditRiderCte(source, first)));
  return text;
}

/**
 * The client id a refused HTTP Basic credential names (never the secret), when well-formed: the
 * refusal is attributed to its token and platform when the counts are written (no lookup per request).
 */
function claimedClientId(req: AuditedRequest): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Basic ([A-Za-z0-9+/=_-]{1,1024})$/i.exec(header.trim()) : null;
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const clientId = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
  return /^[0-9a-f]{32}$/.test(clientId) ? clientId : null;
}

const anonymous: Actor = { platformId: null, actorType: 'anonymous', actorId: null };
