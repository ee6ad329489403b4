import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { type Page, paginate } from '../common/pagination.js';
import { validateBody } from '../common/validate-body.js';
import { AppConfig } from '../config/app-config.js';
import { conflictFor, findOwned, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import {
  type ListProviderAccountsQuery,
  type ListStablecoinsQuery,
  type Stablecoin,
  StablecoinProviderAccountLinkRequest,
  type StablecoinProviderAccount,
  StablecoinRegisterRequest,
} from './stablecoin.dto.js';
import { StablecoinEntity, StablecoinProviderAccountEntity } from './stablecoin.entities.js';
import { gridStatusEvent } from './stablecoin-events.js';
import { renderProviderAccount, renderStablecoin } from './stablecoin.render.js';
import { OPERATOR_TRANSITIONS, type OperatorGridStatus, type ProviderEnvironment } from './stablecoin.types.js';
import { type ProviderAccountRef, StablecoinProvider } from './provider/stablecoin-provider.js';

export const coinNotFound = (id: string) =>
  new ApiError('STABLECOIN_NOT_FOUND', `Stablecoin ${formatId('Stablecoin', id)} not found`, {
    details: { stablecoinId: formatId('Stablecoin', id) },
  });

const linkNotFound = (id: string) =>
  new ApiError(
    'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    `Stablecoin provider account link ${formatId('StablecoinProviderAccount', id)} not found`,
    { details: { stablecoinProviderAccountId: formatId('StablecoinProviderAccount', id) } },
  );

/**
 * Provider account links, registered stablecoins and their Grid enablement (docs/stablecoins.md).
 * Every query is scoped by platform (another platform's link or coin is 404); the provider is called
 * through the StablecoinProvider interface (the sandbox provider unless a real adapter is bound).
 */
@Injectable()
export class StablecoinsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly provider: StablecoinProvider,
    private readonly box: SecretBox,
    private readonly outbox: OutboxService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'stablecoin_provider_accounts.api_client_secret',
      table: 'stablecoin_provider_accounts',
      keys: ['platform_id', 'id'],
      value: 'api_client_secret',
      assign: (param) => `api_client_secret = ${param}`,
    });
  }

  /** The provider environment of this deployment's mode: SANDBOX with SANDBOX=true. */
  environment(): ProviderEnvironment {
    return this.config.SANDBOX ? 'SANDBOX' : 'PRODUCTION';
  }

  /** The link as the provider is called with it (the secret opened for the call only). */
  providerRef(link: StablecoinProviderAccountEntity): ProviderAccountRef {
    return {
      providerAccountId: link.providerAccountId,
      apiClientId: link.apiClientId,
      apiClientSecret: this.box.open(link.apiClientSecret),
      environment: link.providerEnvironment,
    };
  }

  // ---- provider account links ----

  async link(platformId: string, body: unknown): Promise<StablecoinProviderAccount> {
    const { value, errors } = validateBody(StablecoinProviderAccountLinkRequest, body);
    if (errors.length) throw invalidInput(errors);
    const environment = this.environment();
    const { providerAccountId } = this.provider.verifyCredentials({
      apiClientId: value.apiClientId,
      apiClientSecret: value.apiClientSecret,
      ...(value.providerAccountId !== undefined ? { providerAccountId: value.providerAccountId } : {}),
      environment,
    });
    return this.tx.run(async (m) => {
      const existing = await m.findOne(StablecoinProviderAccountEntity, {
        where: {
          platformId,
          provider: value.provider,
          providerEnvironment: environment,
          providerAccountId,
          status: 'ACTIVE',
        },
      });
      const duplicate = (id: string) =>
        new ApiError('CONFLICT', `Provider account ${providerAccountId} is already linked`, {
          details: { stablecoinProviderAccountId: formatId('StablecoinProviderAccount', id) },
        });
      if (existing) throw duplicate(existing.id);
      const now = this.clock.now();
      const row: StablecoinProviderAccountEntity = {
        id: newUuid(),
        platformId,
        provider: value.provider,
        providerEnvironment: environment,
        providerAccountId,
        apiClientId: value.apiClientId,
        apiClientSecret: this.box.seal(value.apiClientSecret),
        status: 'ACTIVE',
        lastVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      };
      try {
        await m.insert(StablecoinProviderAccountEntity, row);
      } catch (error) {
        const raced = () => new ApiError('CONFLICT', `Provider account ${providerAccountId} is already linked`);
        throw conflictFor(error, { stablecoin_provider_accounts_active: raced }) ?? error;
      }
      noteAuditResource(formatId('StablecoinProviderAccount', row.id));
      return renderProviderAccount(row);
    });
  }

  async listLinks(platformId: string, query: ListProviderAccountsQuery): Promise<Page<StablecoinProviderAccount>> {
    const qb = this.tx.manager
      .createQueryBuilder(StablecoinProviderAccountEntity, 'l')
      .where('l.platform_id = :platformId', { platformId });
    if (query.provider) qb.andWhere('l.provider = :provider', { provider: query.provider });
    if (query.status) qb.andWhere('l.status = :status', { status: query.status });
    return paginate(qb, query, renderProviderAccount);
  }

  async getLink(platformId: string, id: string): Promise<StablecoinProviderAccount> {
    return renderProviderAccount(await this.findLink(this.tx.manager, platformId, id));
  }

  findLink(m: EntityManager, platformId: string, uuid: string, lock?: RowLock) {
    return findOwned(m, StablecoinProviderAccountEntity, platformId, { id: uuid }, () => linkNotFound(uuid), lock);
  }

  /** 400 INVALID / REVOKED for a link that may not start anything new. */
  requireUsable(link: StablecoinProviderAccountEntity): void {
    const id = formatId('StablecoinProviderAccount', link.id);
    if (link.status === 'REVOKED')
      throw new ApiError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', `Provider account link ${id} was revoked`, {
        details: { stablecoinProviderAccountId: id },
      });
    if (link.status === 'INVALID')
      throw new ApiError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `Provider account link ${id} is INVALID: its credentials no longer verify; link the account again`,
        { details: { stablecoinProviderAccountId: id } },
      );
  }

  /**
   * The link a registration uses: the one named, or the only ACTIVE one of the platform (in this
   * environment). Several ACTIVE: 400 SELECTION_REQUIRED; none: the newest link's refusal, or 404.
   */
  private async selectLink(m: EntityManager, platformId: string, id: string | undefined) {
    if (id !== undefined) {
      const link = await this.findLink(m, platformId, parseId('StablecoinProviderAccount', id)!, 'share');
      this.requireUsable(link);
      return link;
    }
    const links = await m.find(StablecoinProviderAccountEntity, {
      where: { platformId, providerEnvironment: this.environment() },
      order: { id: 'DESC' },
    });
    const active = links.filter((l) => l.status === 'ACTIVE');
    if (active.length > 1)
      throw new ApiError(
        'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED',
        `${active.length} provider account links are ACTIVE: pass stablecoinProviderAccountId to choose one`,
        { details: { stablecoinProviderAccountIds: active.map((l) => formatId('StablecoinProviderAccount', l.id)) } },
      );
    if (active.length === 1) return active[0];
    if (links.length) this.requireUsable(links[0]);
    throw new ApiError(
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
      'No stablecoin provider account is linked: link one with POST /stablecoin-provider-accounts',
    );
  }

  /** The sandbox's stand-in for the provider reporting a link's credentials (revoked, invalid, valid again). */
  async setLinkStatus(platformId: string, id: string, status: StablecoinProviderAccountEntity['status']) {
    return this.tx.run(async (m) => {
      const link = await this.findLink(m, platformId, id, 'update');
      if (link.status !== status) {
        link.status = status;
        link.updatedAt = this.clock.now();
        if (status === 'ACTIVE') link.lastVerifiedAt = link.updatedAt;
        await m.update(
          StablecoinProviderAccountEntity,
          { id: link.id, platformId: link.platformId },
          { status, updatedAt: link.updatedAt, lastVerifiedAt: link.lastVerifiedAt },
        );
      }
      noteAuditResource(formatId('StablecoinProviderAccount', link.id));
      return renderProviderAccount(link);
    });
  }

  // ---- stablecoins ----

  async register(platformId: string, body: unknown): Promise<Stablecoin> {
    const { value, errors } = validateBody(StablecoinRegisterRequest, body);
    if (errors.length) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const link = await this.selectLink(m, platformId, value.stablecoinProviderAccountId);
      const token = this.provider.token(this.providerRef(link), {
        providerTokenIdentifier: value.providerTokenIdentifier,
        networkTokenIdentifier: value.networkTokenIdentifier,
        network: value.network,
      });
      const tokenTaken = () =>
        new ApiError(
          'STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS',
          `Token ${value.networkTokenIdentifier} is already registered`,
        );
      const symbolTaken = () =>
        new ApiError(
          'STABLECOIN_SYMBOL_ALREADY_EXISTS',
          `A stablecoin with symbol ${token.symbol} is already registered`,
        );
      const clash = await m
        .createQueryBuilder(StablecoinEntity, 's')
        .where('s.platform_id = :platformId', { platformId })
        .andWhere('(s.network_token_identifier = :token OR s.symbol = :symbol)', {
          token: value.networkTokenIdentifier,
          symbol: token.symbol,
        })
        .getOne();
      if (clash) throw clash.networkTokenIdentifier === value.networkTokenIdentifier ? tokenTaken() : symbolTaken();
      const now = this.clock.now();
      const coin: StablecoinEntity = {
        id: newUuid(),
        platformId,
        providerAccountId: link.id,
        provider: link.provider,
        providerEnvironment: link.providerEnvironment,
        name: token.name,
        symbol: token.symbol,
        baseCurrency: token.baseCurrency,
        network: value.network,
        decimals: token.decimals,
        issuanceStatus: token.issuanceStatus,
        gridOperationsStatus: 'NOT_ENABLED',
        networkTokenIdentifier: value.networkTokenIdentifier,
        providerTokenIdentifier: value.providerTokenIdentifier,
        createdAt: now,
        updatedAt: now,
      };
      try {
        await m.insert(StablecoinEntity, coin);
      } catch (error) {
        throw (
          conflictFor(error, { stablecoins_symbol: symbolTaken, stablecoins_token_identifier: tokenTaken }) ?? error
        );
      }
      noteAuditResource(formatId('Stablecoin', coin.id));
      return renderStablecoin(coin);
    });
  }

  async list(platformId: string, query: ListStablecoinsQuery): Promise<Page<Stablecoin>> {
    const qb = this.tx.manager
      .createQueryBuilder(StablecoinEntity, 's')
      .where('s.platform_id = :platformId', { platformId });
    if (query.issuanceStatus) qb.andWhere('s.issuance_status = :i', { i: query.issuanceStatus });
    if (query.gridOperationsStatus) qb.andWhere('s.grid_operations_status = :g', { g: query.gridOperationsStatus });
    if (query.provider) qb.andWhere('s.provider = :p', { p: query.provider });
    return paginate(qb, query, renderStablecoin);
  }

  async get(platformId: string, id: string): Promise<Stablecoin> {
    return renderStablecoin(await this.find(this.tx.manager, platformId, id));
  }

  find(m: EntityManager, platformId: string, uuid: string, lock?: RowLock): Promise<StablecoinEntity> {
    return findOwned(m, StablecoinEntity, platformId, { id: uuid }, () => coinNotFound(uuid), lock);
  }

  /**
   * The platform asks for Grid enablement (ours: the reference has no route for it): NOT_ENABLED
   * becomes PENDING_APPROVAL; a repeat while PENDING_APPROVAL answers the coin unchanged; any other
   * state is the operator's, 409 STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE.
   */
  async requestEnablement(platformId: string, id: string): Promise<Stablecoin> {
    return this.tx.run(async (m) => {
      const coin = await this.find(m, platformId, id, 'update');
      noteAuditResource(formatId('Stablecoin', coin.id));
      if (coin.gridOperationsStatus === 'PENDING_APPROVAL') return renderStablecoin(coin);
      if (coin.gridOperationsStatus !== 'NOT_ENABLED')
        throw new ApiError(
          'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE',
          `Enablement can be requested only while NOT_ENABLED; the stablecoin is ${coin.gridOperationsStatus}, which the operator drives`,
          { details: { gridOperationsStatus: coin.gridOperationsStatus } },
        );
      requireProvisioned(coin);
      return this.changeGridStatus(m, coin, 'PENDING_APPROVAL');
    });
  }

  /**
   * The operator moves a coin's enablement (CLI `stablecoin:enablement`, the console): PENDING_APPROVAL
   * to ENABLING or DISABLED, ENABLING to ENABLED or DISABLED, ENABLED to DISABLED, DISABLED to ENABLING;
   * anything else is 409 INVALID_STATE_TRANSITION. `platformId` null: the CLI, any platform's coin.
   */
  async operatorSetGridStatus(
    m: EntityManager,
    platformId: string | null,
    uuid: string,
    status: OperatorGridStatus,
  ): Promise<Stablecoin> {
    // The CLI names a coin of any platform: its platform is read first (unlocked, across
    // platforms), then the coin is locked on its own platform's shard.
    const owner = platformId ?? (await this.platformOfCoin(m, uuid));
    if (owner === null) throw coinNotFound(uuid);
    const coin = await this.find(m, owner, uuid, 'update');
    noteAuditResource(formatId('Stablecoin', coin.id));
    if (!OPERATOR_TRANSITIONS[coin.gridOperationsStatus].includes(status))
      throw new ApiError(
        'INVALID_STATE_TRANSITION',
        `A stablecoin ${coin.gridOperationsStatus} cannot become ${status}`,
        { details: { gridOperationsStatus: coin.gridOperationsStatus, requested: status } },
      );
    return this.changeGridStatus(m, coin, status);
  }

  /** A coin's platform by the coin's id alone (the operator's CLI): null when there is no such coin. */
  private async platformOfCoin(m: EntityManager, uuid: string): Promise<string | null> {
    const [row] = await m.query<Array<{ platform_id: string }>>(
      '/* cross-shard: stablecoin-operator-lookup */ SELECT platform_id FROM stablecoins WHERE id = $1',
      [uuid],
    );
    return row?.platform_id ?? null;
  }

  private async changeGridStatus(
    m: EntityManager,
    coin: StablecoinEntity,
    status: StablecoinEntity['gridOperationsStatus'],
  ): Promise<Stablecoin> {
    coin.gridOperationsStatus = status;
    coin.updatedAt = this.clock.now();
    await m.update(
      StablecoinEntity,
      { id: coin.id, platformId: coin.platformId },
      { gridOperationsStatus: status, updatedAt: coin.updatedAt },
    );
    const rendered = renderStablecoin(coin);
    await this.outbox.write(m, gridStatusEvent(coin.platformId, rendered));
    return rendered;
  }
}

/** 400 STABLECOIN_NOT_PROVISIONED unless the provider reports the coin PROVISIONED. */
export function requireProvisioned(coin: StablecoinEntity): void {
  if (coin.issuanceStatus !== 'PROVISIONED')
    throw new ApiError(
      'STABLECOIN_NOT_PROVISIONED',
      `Stablecoin ${formatId('Stablecoin', coin.id)} is ${coin.issuanceStatus} at the provider, not PROVISIONED`,
      { details: { issuanceStatus: coin.issuanceStatus } },
    );
}
