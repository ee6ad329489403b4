import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager, IsNull } from 'typeorm';
import { formatId, newUuid } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { ApiTokenEntity, Permission } from './api-token.entity.js';
import type { PlatformPrincipal } from './auth.decorators.js';
import { ConsoleSessionsService } from './console-sessions.service.js';
import { TokenCache } from './token-cache.js';
import { hashSecret, newClientId, newSecret, secretMatches } from './secrets.js';
import type { ApiToken, ApiTokenCreateRequest, ListTokensQuery } from './token.dto.js';
import { noteAuditResource } from '../audit/audit-trail.js';

export const AUTHENTICATE_SQL =
  'SELECT id, platform_id, permissions, secret_hash FROM api_tokens WHERE client_id = $1 AND revoked_at IS NULL';

const GET_TOKEN_SQL =
  'SELECT id, name, permissions, client_id, created_at, updated_at FROM api_tokens WHERE id = $1 AND platform_id = $2 AND revoked_at IS NULL';

interface TokenRow {
  id: string;
  name: string;
  permissions: Permission[];
  client_id: string;
  created_at: Date;
  updated_at: Date;
}

interface AuthRow {
  id: string;
  platform_id: string;
  permissions: Permission[];
  secret_hash: Buffer;
}

/** Compared against when a client id is unknown, so a miss costs the same as a wrong secret. */
const DUMMY_HASH = hashSecret('dummy');

export function renderToken(row: ApiTokenEntity, clientSecret?: string): ApiToken {
  const token: ApiToken = {
    id: formatId('Token', row.id),
    name: row.name,
    permissions: row.permissions,
    clientId: row.clientId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (clientSecret !== undefined) token.clientSecret = clientSecret;
  return token;
}

@Injectable()
export class TokensService {
  constructor(
    private readonly tx: TransactionService,
    private readonly cache: TokenCache,
    private readonly clock: Clock,
    private readonly sessions: ConsoleSessionsService,
  ) {}

  /** Cached (see TokenCache); a miss is one fixed-text statement. */
  /** The principal when the token cache already verified these credentials (no database work); else null. */
  cached(clientId: string, secret: string): PlatformPrincipal | null {
    if (clientId.length > 64 || secret.length > 256) return null;
    return this.cache.get(clientId, secret);
  }

  async authenticate(clientId: string, secret: string): Promise<PlatformPrincipal | null> {
    if (clientId.length > 64 || secret.length > 256) return null;
    const cached = this.cache.get(clientId, secret);
    if (cached) return cached;
    const version = this.cache.version;
    const rows = await this.tx.query<AuthRow[]>(AUTHENTICATE_SQL, [clientId]);
    const row = rows[0];
    const ok = secretMatches(secret, row?.secret_hash ?? DUMMY_HASH);
    if (!row || !ok) return null;
    // Shared by every request the cache serves: frozen, so none can alter it for the next.
    const principal: PlatformPrincipal = Object.freeze({
      kind: 'platform' as const,
      platformId: row.platform_id,
      tokenId: row.id,
      permissions: Object.freeze([...row.permissions]) as Permission[],
    });
    this.cache.set(clientId, row.secret_hash, principal, version);
    return principal;
  }

  /** Creates a token; its secret is returned here and never again. */
  async create(
    manager: EntityManager,
    platformId: string,
    request: { name: string; permissions: Permission[] },
  ): Promise<ApiToken> {
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
    noteAuditResource(formatId('Token', row.id));
    return renderToken(row, secret);
  }

  createForPlatform(platformId: string, request: ApiTokenCreateRequest): Promise<ApiToken> {
    return this.tx.run((m) => this.create(m, platformId, request));
  }

  async list(platformId: string, query: ListTokensQuery): Promise<Page<ApiToken>> {
    const qb = this.tx.manager
      .createQueryBuilder(ApiTokenEntity, 't')
      .where('t.platform_id = :platformId AND t.revoked_at IS NULL', { platformId });
    if (query.name !== undefined) qb.andWhere('t.name = :name', { name: query.name });
    return paginate(whereTimeRange(qb, 't', query), query, (row) => renderToken(row));
  }

  /** One fixed statement. */
  async get(platformId: string, tokenId: string): Promise<ApiToken> {
    const [row] = await this.tx.query<TokenRow[]>(GET_TOKEN_SQL, [tokenId, platformId]);
    if (!row) throw new ApiError('TOKEN_NOT_FOUND', `Token ${formatId('Token', tokenId)} not found`);
    return renderToken(
      Object.assign(new ApiTokenEntity(), {
        id: row.id,
        name: row.name,
        permissions: row.permissions,
        clientId: row.client_id,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }),
    );
  }

  /**
   * Revokes at once: the next request with this token is 401, on every replica (the NOTIFY sent
   * in the transaction makes each one evict it from its cache at commit), and its console
   * sessions end in the same transaction. The row stays for audit.
   */
  async revoke(platformId: string, tokenId: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, tokenId);
      const now = this.clock.now();
      await m.update(ApiTokenEntity, { id: row.id, platformId }, { revokedAt: now, updatedAt: now });
      await this.sessions.revokeForToken(m, platformId, row.id, now);
      await this.cache.announceRevocation(m, row.id);
    });
    this.cache.revoked(tokenId);
  }

  private async find(m: EntityManager, platformId: string, tokenId: string): Promise<ApiTokenEntity> {
    return findOwned(
      m,
      ApiTokenEntity,
      platformId,
      { id: tokenId, revokedAt: IsNull() },
      () => new ApiError('TOKEN_NOT_FOUND', `Token ${formatId('Token', tokenId)} not found`),
    );
  }
}
