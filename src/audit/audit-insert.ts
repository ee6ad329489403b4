import pg from 'pg';
import { AuditRecord, canonical, contentDigest, NIL_CHAIN, recordValues } from './audit-record.js';

/** The appended columns, in the order of `auditParameters`, with each parameter's type. */
const APPEND_COLUMNS: Array<[string, string]> = [
  ['id', 'uuid'],
  ['platform_id', 'uuid'],
  ['created_at', 'timestamptz'],
  ['actor_type', 'text'],
  ['actor_id', 'text'],
  ['action', 'text'],
  ['resource_ids', 'text[]'],
  ['status', 'int'],
  ['error_code', 'text'],
  ['request_id', 'text'],
  ['source_address', 'text'],
  ['user_agent', 'text'],
  ['changed_fields', 'text[]'],
  ['chain', 'uuid'],
  ['digest', 'text'],
  ['count', 'int'],
  ['last_seen', 'timestamptz'],
];
const INSERT_INTO = `INSERT INTO audit_events (${APPEND_COLUMNS.map(([c]) => c).join(', ')})`;
const values = (first: number) => APPEND_COLUMNS.map(([, type], i) => `$${first + i}::${type}`).join(', ');

/**
 * Appends one event, unlinked: no chain position yet (`seq`, `prev_hash`, `hash` NULL), so no
 * write waits on another for its platform's chain. The sealer (audit-sealer.ts) links it later in
 * commit order; `digest` names it altered meanwhile.
 */
export const AUDIT_INSERT_SQL = `${INSERT_INTO} VALUES (${values(1)})`;

/**
 * The same append as a CTE riding in a one-statement change (TransactionService.change): written
 * only when the CTE `source` returned a row (the change changed something), parameters from `first`.
 */
export function auditRiderCte(source: string, first: number): string {
  return `audit_event AS (${INSERT_INTO} SELECT ${values(first)} WHERE EXISTS (SELECT 1 FROM ${source}))`;
}

/** The insert's parameters for a record (APPEND_COLUMNS). */
export function auditParameters(r: AuditRecord): unknown[] {
  return [...recordValues(r), r.platformId ?? NIL_CHAIN, contentDigest(canonical(r)), r.count ?? 1, r.lastSeen ?? null];
}

/** A value as an SQL literal (pg's escaping: quotes doubled, backslashes in an E'' string). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  throw new TypeError(`an audit value of type ${typeof value} has no literal form`);
}

/**
 * The append with its values inlined as literals (from `auditParameters`), for a statement that
 * shares COMMIT's simple-protocol message (BeforeCommitHook.atCommit), where no parameter can be
 * bound. Every value is an id, a name, a number, a date or a cleaned, bounded string.
 */
export function auditLiteralInsert(parameters: unknown[]): string {
  const list = APPEND_COLUMNS.map(([, type], i) => `${literal(parameters[i])}::${type}`).join(', ');
  return `${INSERT_INTO} VALUES (${list})`;
}
