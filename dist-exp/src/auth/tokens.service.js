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
import { Clock } from '../common/clock.js';
import { IsNull } from 'typeorm';
import { formatId, newUuid } from '../common/ids.js';
import { paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { ApiTokenEntity } from './api-token.entity.js';
import { TokenCache } from './token-cache.js';
import { hashSecret, newClientId, newSecret, secretMatches } from './secrets.js';
export const AUTHENTICATE_SQL = 'SELECT id, platform_id, permissions, secret_hash FROM api_tokens WHERE client_id = $1 AND revoked_at IS NULL';
const GET_TOKEN_SQL = 'SELECT id, name, permissions, client_id, created_at, updated_at FROM api_tokens WHERE id = $1 AND platform_id = $2 AND revoked_at IS NULL';
/** Compared against when a client id is unknown, so a miss costs the same as a wrong secret. */
const DUMMY_HASH = hashSecret('dummy');
export function renderToken(row, clientSecret) {
    const token = {
        id: formatId('Token', row.id),
        name: row.name,
        permissions: row.permissions,
        clientId: row.clientId,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
    };
    if (clientSecret !== undefined)
        token.clientSecret = clientSecret;
    return token;
}
let TokensService = class TokensService {
    tx;
    cache;
    clock;
    constructor(tx, cache, clock) {
        this.tx = tx;
        this.cache = cache;
        this.clock = clock;
    }
    /** Cached (see TokenCache); a miss is one fixed-text statement. */
    async authenticate(clientId, secret) {
        if (clientId.length > 64 || secret.length > 256)
            return null;
        const cached = this.cache.get(clientId, secret);
        if (cached)
            return cached;
        const version = this.cache.version;
        const rows = await this.tx.query(AUTHENTICATE_SQL, [clientId]);
        const row = rows[0];
        const ok = secretMatches(secret, row?.secret_hash ?? DUMMY_HASH);
        if (!row || !ok)
            return null;
        // Shared by every request the cache serves: frozen, so none can alter it for the next.
        const principal = Object.freeze({
            kind: 'platform',
            platformId: row.platform_id,
            tokenId: row.id,
            permissions: Object.freeze([...row.permissions]),
        });
        this.cache.set(clientId, row.secret_hash, principal, version);
        return principal;
    }
    /** Creates a token; its secret is returned here and never again. */
    async create(manager, platformId, request) {
        const secret = newSecret();
        const now = this.clock.now();
        const row = manager.create(ApiTokenEntity, {
            id: newUuid(),
            platformId,
            name: request.name,
            permissions: [...new Set(request.permissions)],
            clientId: newClientId(),
            secretHash: hashSecret(secret),
            createdAt: now,
            updatedAt: now,
            revokedAt: null,
        });
        await manager.insert(ApiTokenEntity, row);
        return renderToken(row, secret);
    }
    createForPlatform(platformId, request) {
        return this.tx.run((m) => this.create(m, platformId, request));
    }
    async list(platformId, query) {
        const qb = this.tx.manager
            .createQueryBuilder(ApiTokenEntity, 't')
            .where('t.platform_id = :platformId AND t.revoked_at IS NULL', { platformId });
        if (query.name !== undefined)
            qb.andWhere('t.name = :name', { name: query.name });
        return paginate(whereTimeRange(qb, 't', query), query, (row) => renderToken(row));
    }
    /** One fixed statement. */
    async get(platformId, tokenId) {
        const [row] = await this.tx.query(GET_TOKEN_SQL, [tokenId, platformId]);
        if (!row)
            throw new ApiError('TOKEN_NOT_FOUND', `Token ${formatId('Token', tokenId)} not found`);
        return renderToken(Object.assign(new ApiTokenEntity(), {
            id: row.id,
            name: row.name,
            permissions: row.permissions,
            clientId: row.client_id,
            createdAt: row.created_at,
            updatedAt: row.updated_at,
        }));
    }
    /**
     * Revokes at once: the next request with this token is 401, on every replica (the NOTIFY sent
     * in the transaction makes each one evict it from its cache at commit). The row stays for audit.
     */
    async revoke(platformId, tokenId) {
        await this.tx.run(async (m) => {
            const row = await this.find(m, platformId, tokenId);
            const now = this.clock.now();
            await m.update(ApiTokenEntity, { id: row.id }, { revokedAt: now, updatedAt: now });
            await this.cache.announceRevocation(m, row.id);
        });
        this.cache.revoked(tokenId);
    }
    async find(m, platformId, tokenId) {
        return findOwned(m, ApiTokenEntity, platformId, { id: tokenId, revokedAt: IsNull() }, () => new ApiError('TOKEN_NOT_FOUND', `Token ${formatId('Token', tokenId)} not found`));
    }
};
TokensService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService,
        TokenCache,
        Clock])
], TokensService);
export { TokensService };
//# sourceMappingURL=tokens.service.js.map