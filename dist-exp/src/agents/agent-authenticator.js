var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { hashSecret, secretMatches } from '../auth/secrets.js';
import { TransactionService } from '../database/transaction.service.js';
import { isAccessTokenFormat } from './agent-credentials.js';
import { renderPolicy } from './agent-policy.js';
/**
 * The live token with its agent, in one statement: a revoked (superseded) token, a deleted agent
 * or an agent whose customer was deleted finds nothing. Not cached: pausing, deleting and policy
 * changes act on the very next request on every replica, at the cost of this one indexed lookup
 * per agent request.
 */
export const AUTHENTICATE_AGENT_SQL = `
  SELECT t.token_hash, a.id AS agent_id, a.platform_id, a.customer_id, a.is_paused, a.policy
    FROM agent_access_tokens t
    JOIN agents a ON a.id = t.agent_id
    JOIN customers c ON c.id = a.customer_id
   WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND a.deleted_at IS NULL AND c.deleted_at IS NULL`;
/** Compared against when nothing matched, so a miss costs the same as a hit. */
const DUMMY_HASH = hashSecret('gat_dummy');
/** The AgentAuth scheme: serves the global guard through `AGENT_AUTHENTICATOR` (src/auth/). */
let AgentTokenAuthenticator = class AgentTokenAuthenticator {
    tx;
    constructor(tx) {
        this.tx = tx;
    }
    async authenticate(token) {
        if (!isAccessTokenFormat(token))
            return null;
        const [row] = await this.tx.query(AUTHENTICATE_AGENT_SQL, [hashSecret(token)]); // fixed SQL, prepared
        // Found by its hash; compared again in constant time (the lookup itself only saw a hash).
        const ok = secretMatches(token, row?.token_hash ?? DUMMY_HASH);
        if (!row || !ok)
            return null;
        return {
            kind: 'agent',
            platformId: row.platform_id,
            agentId: row.agent_id,
            customerId: row.customer_id,
            isPaused: row.is_paused,
            permissions: renderPolicy(row.policy).permissions,
        };
    }
};
AgentTokenAuthenticator = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService])
], AgentTokenAuthenticator);
export { AgentTokenAuthenticator };
//# sourceMappingURL=agent-authenticator.js.map