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
import { hashSecret, newClientId, newSecret, secretMatches } from './secrets.js';
import type { ApiToken, ApiTokenCreateRequest, ListTokensQuery } from './token.dto.js';

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
    private readonly clock: Clock,
  ) {}

  async authenticate(clientId: string, secret: string): Promise<PlatformPrincipal | null> {
    if (clientId.length > 64 || secret.length > 256) return null;
    const row = await this.tx.manager.findOne(ApiTokenEntity, {
      where: { clientId, revokedAt: IsNull() },
      select: { id: true, platformId: true, permissions: true, secretHash: true },
    });
    const ok = secretMatches(secret, row?.secretHash ?? DUMMY_HASH);
    if (!row || !ok) return null;
    return { platformId: row.platformId, tokenId: row.id, permissions: row.permissions };
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

  async get(platformId: string, tokenId: string): Promise<ApiToken> {
    return renderToken(await this.find(this.tx.manager, platformId, tokenId));
  }

  /** Revokes at once: the next request with this token is 401. The row stays for audit. */
  async revoke(platformId: string, tokenId: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, tokenId);
      const now = this.clock.now();
      await m.update(ApiTokenEntity, { id: row.id }, { revokedAt: now, updatedAt: now });
    });
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
