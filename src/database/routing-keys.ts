import { createHash } from 'node:crypto';

/**
 * The platform of a lookup that starts from an opaque value (issue 49, docs/scale-out.md): the
 * `routing_keys` reference table maps the SHA-256 of the value to its platform, so the real lookup
 * can pin `platform_id` (one shard) instead of asking every shard. A route is written in the
 * transaction that writes the row it routes; a route to a row that is gone, revoked or expired
 * leads to a pinned lookup that finds nothing (the same answer as before).
 */
export type RoutingKind =
  | 'console_session'
  | 'agent_access_token'
  | 'agent_device_code'
  | 'kyc_link'
  | 'uma_invitation'
  | 'uma_address'
  | 'uma_payment';

/** Anything that runs a statement: an EntityManager, the TransactionService, a DataSource. */
interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/** SHA-256 of the value (UTF-8): what `routing_keys.key_hash` holds. */
export const routingHash = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** An UMA address's key: case-insensitive, with its `$`. */
export const umaAddressKey = (address: string): Buffer => routingHash(address.toLowerCase());

const ROUTE_SQL = 'SELECT platform_id FROM routing_keys WHERE kind = $1 AND key_hash = $2 LIMIT 1';

/**
 * Records where `keyHash` lives, in the caller's transaction. False when the key is already taken:
 * a secret's key (every kind but `uma_address`) is unique across platforms (`routing_keys_unique`),
 * so the route doubles as the global uniqueness of codes and tokens.
 */
export async function addRoute(q: Queryable, kind: RoutingKind, keyHash: Buffer, platformId: string): Promise<boolean> {
  const rows = await q.query<unknown[]>(
    'INSERT INTO routing_keys (kind, key_hash, platform_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING kind',
    [kind, keyHash, platformId],
  );
  return rows.length === 1;
}

/** Forgets the routes of `keyHashes` on `platformId`. */
export async function removeRoutes(
  q: Queryable,
  kind: RoutingKind,
  keyHashes: Buffer[],
  platformId: string,
): Promise<void> {
  if (keyHashes.length === 0) return;
  await q.query('DELETE FROM routing_keys WHERE kind = $1 AND key_hash = ANY($2) AND platform_id = $3', [
    kind,
    keyHashes,
    platformId,
  ]);
}

/** The platform `keyHash` routes to, or null (unknown: the lookup would find nothing). */
export async function routeOf(q: Queryable, kind: RoutingKind, keyHash: Buffer): Promise<string | null> {
  const rows = await q.query<Array<{ platform_id: string }>>(ROUTE_SQL, [kind, keyHash]);
  return rows[0]?.platform_id ?? null;
}

/** Every platform `keyHash` routes to (an UMA address may be held on several platforms). */
export async function routesOf(q: Queryable, kind: RoutingKind, keyHash: Buffer): Promise<string[]> {
  const rows = await q.query<Array<{ platform_id: string }>>(
    'SELECT platform_id FROM routing_keys WHERE kind = $1 AND key_hash = $2 ORDER BY platform_id',
    [kind, keyHash],
  );
  return rows.map((r) => r.platform_id);
}
