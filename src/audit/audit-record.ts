import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { formatId, newUuid } from '../common/ids.js';

/** Who acted: an API token (also the token behind a console session), an agent, `system` (worker, CLI), or nobody known. */
export type ActorType = 'api_token' | 'agent' | 'system' | 'anonymous';

/** The chain of calls no platform could be named for (e.g. unknown credentials). */
export const NIL_CHAIN = '00000000-0000-0000-0000-000000000000';

/**
 * One audit event as written. Only names and identifiers: never a request or response value
 * (no secret, sealed value or card number can reach it), and every string is bounded and cleaned
 * of control characters before it is stored.
 */
export interface AuditRecord {
  /** uuid */
  id: string;
  /** uuid, or null when no platform could be named */
  platformId: string | null;
  createdAt: Date;
  actorType: ActorType;
  /** `Token:<uuid>`, `Agent:<uuid>`, `system`, or null */
  actorId: string | null;
  /** the route's OpenAPI operationId (e.g. `updateCard`), or a CLI command (`cli:platform:create`) */
  action: string;
  resourceIds: string[];
  /** the HTTP status answered (or 0 for a CLI command that succeeded) */
  status: number;
  errorCode: string | null;
  requestId: string | null;
  sourceAddress: string | null;
  userAgent: string | null;
  /** names of the body's top-level members of a change (never their values) */
  changedFields: string[];
  /**
   * A counted refusal (src/audit/audit-refusals.ts): how many identical refusals this one row
   * stands for, `createdAt` the first and `lastSeen` the last. Absent for a single event.
   */
  count?: number;
  lastSeen?: Date | null;
}

/**
 * The canonical text a record is hashed over (everything but the chain position): the writer
 * (in SQL, sha256 of the previous hash and this text) and `audit:verify` compute it the same way.
 */
export function canonical(r: AuditRecord): string {
  // JSON renders createdAt as its ISO string (Date#toJSON). A counted refusal adds its count and
  // last sighting (a single event's text is unchanged, so events sealed before stay verifiable).
  return JSON.stringify(r.lastSeen ? [...recordValues(r), r.count ?? 1, r.lastSeen] : recordValues(r));
}

/** The digest an event is appended with (hex sha256 of its canonical text): names an unsealed event altered. */
export function contentDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The record's fields in their one order: the canonical text and the INSERT's parameters both use it. */
export function recordValues(r: AuditRecord): unknown[] {
  return [
    r.id,
    r.platformId,
    r.createdAt,
    r.actorType,
    r.actorId,
    r.action,
    r.resourceIds,
    r.status,
    r.errorCode,
    r.requestId,
    r.sourceAddress,
    r.userAgent,
    r.changedFields,
  ];
}

/** A chain link: hex sha256 of the previous event's hash (empty for the first) and the canonical text. */
export function linkHash(prevHash: string | null, text: string): string {
  return createHash('sha256')
    .update(prevHash ?? '', 'utf8')
    .update(text, 'utf8')
    .digest('hex');
}

const ID_LIKE = /^[A-Za-z0-9:._-]{1,128}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_LIST = 32;

/** Control characters (and NUL, which PostgreSQL text cannot hold) removed, length bounded. */
export function cleanText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max);
  return text.length ? text : null;
}

/** Identifiers a request names: its path parameters and the body's `...Id` members (ids, never values). */
export function requestResources(req: Request): string[] {
  const ids = new Set<string>();
  const params = (req.params ?? {}) as Record<string, unknown>;
  // Typed ids only (`<Type>:<uuid>`), as for the body: a path may also carry a bearer value (a KYC
  // link's token, an invitation code, a passkey's credential id) that an audit record must not hold.
  for (const value of Object.values(params))
    if (typeof value === 'string' && ID_LIKE.test(value) && value.includes(':')) ids.add(value);
  const body: unknown = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (ids.size >= MAX_LIST) break;
      if (key.endsWith('Id') && typeof value === 'string' && ID_LIKE.test(value) && value.includes(':')) ids.add(value);
    }
  }
  return [...ids].slice(0, MAX_LIST);
}

/** The names of the body's top-level members (for a change): names only, well-formed ones only. */
export function bodyFieldNames(req: Request): string[] {
  const body: unknown = req.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body as Record<string, unknown>)
    .filter((k) => FIELD_NAME.test(k))
    .sort()
    .slice(0, MAX_LIST);
}

/** A resource id worth recording (e.g. an outbox event's aggregate), when well-formed. */
export function addResource(list: string[], id: string): void {
  if (list.length < MAX_LIST && ID_LIKE.test(id) && !list.includes(id)) list.push(id);
}

export interface Actor {
  platformId: string | null;
  actorType: ActorType;
  actorId: string | null;
}

/** The authenticated principal's actor (set by the auth guard), or null before authentication. */
export function principalActor(principal: unknown): Actor | null {
  if (!principal || typeof principal !== 'object') return null;
  const p = principal as { kind?: string; platformId?: string; tokenId?: string; agentId?: string };
  if (typeof p.platformId !== 'string') return null;
  if (p.kind === 'agent' && typeof p.agentId === 'string')
    return { platformId: p.platformId, actorType: 'agent', actorId: formatId('Agent', p.agentId) };
  if (typeof p.tokenId === 'string')
    return { platformId: p.platformId, actorType: 'api_token', actorId: formatId('Token', p.tokenId) };
  return null;
}

/** A record of a call (HTTP or CLI) whose fields are already clean. */
export function newRecord(fields: Omit<AuditRecord, 'id'>): AuditRecord {
  return { id: newUuid(), ...fields };
}
