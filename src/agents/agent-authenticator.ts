import { Injectable } from '@nestjs/common';
import type { AgentAuthenticator as AgentAuthenticatorPort, AgentPrincipal } from '../auth/auth.decorators.js';
import { hashSecret, secretMatches } from '../auth/secrets.js';
import { routeOf } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import { isAccessTokenFormat } from './agent-credentials.js';
import { renderPolicy } from './agent-policy.js';

/**
 * The live token with its agent, in one statement: a revoked (superseded) token, a deleted agent
 * or an agent whose customer was deleted finds nothing. Not cached: pausing, deleting and policy
 * changes act on the very next request on every replica, at the cost of this one indexed lookup
 * per agent request. The token comes before its platform: `routing_keys` (kind
 * `agent_access_token`, written with the token) names it, and the lookup is pinned to it.
 */
export const AUTHENTICATE_AGENT_SQL = `
  SELECT t.token_hash, a.id AS agent_id, a.platform_id, a.customer_id, a.is_paused, a.policy
    FROM agent_access_tokens t
    JOIN agents a ON a.id = t.agent_id AND a.platform_id = t.platform_id
    JOIN customers c ON c.id = a.customer_id AND c.platform_id = a.platform_id
   WHERE t.token_hash = $1 AND t.platform_id = $2
     AND t.revoked_at IS NULL AND a.deleted_at IS NULL AND c.deleted_at IS NULL`;

interface Row {
  token_hash: Buffer;
  agent_id: string;
  platform_id: string;
  customer_id: string;
  is_paused: boolean;
  policy: unknown;
}

/** Compared against when nothing matched, so a miss costs the same as a hit. */
const DUMMY_HASH = hashSecret('gat_dummy');

/** The AgentAuth scheme: serves the global guard through `AGENT_AUTHENTICATOR` (src/auth/). */
@Injectable()
export class AgentTokenAuthenticator implements AgentAuthenticatorPort {
  constructor(private readonly tx: TransactionService) {}

  async authenticate(token: string): Promise<AgentPrincipal | null> {
    if (!isAccessTokenFormat(token)) return null;
    const hash = hashSecret(token);
    const platformId = await routeOf(this.tx, 'agent_access_token', hash);
    const [row] = platformId === null ? [] : await this.tx.query<Row[]>(AUTHENTICATE_AGENT_SQL, [hash, platformId]); // fixed SQL, prepared
    // Found by its hash; compared again in constant time (the lookup itself only saw a hash).
    const ok = secretMatches(token, row?.token_hash ?? DUMMY_HASH);
    if (!row || !ok) return null;
    return {
      kind: 'agent',
      platformId: row.platform_id,
      agentId: row.agent_id,
      customerId: row.customer_id,
      isPaused: row.is_paused,
      permissions: renderPolicy(row.policy).permissions,
    };
  }
}
