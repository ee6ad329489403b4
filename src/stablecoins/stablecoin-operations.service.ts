import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../audit/audit-trail.js';
import { type BusinessTime, Clock, later, RealClock, type RealTime } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { type Page, paginate } from '../common/pagination.js';
import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { validateBody } from '../common/validate-body.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ExternalAccountEntity } from '../external-accounts/external-account.entity.js';
import { LedgerService, systemAccount } from '../ledger/ledger.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import {
  AchDebitFundingSource,
  GridInternalSource,
  type ListOperationsQuery,
  ProviderBalanceFundingSource,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  type StablecoinOperation,
  TypeOnlySource,
  WireFundingSource,
} from './stablecoin.dto.js';
import { StablecoinEntity, StablecoinOperationEntity } from './stablecoin.entities.js';
import { operationEvent } from './stablecoin-events.js';
import { renderOperation } from './stablecoin.render.js';
import type {
  OperationDestination,
  OperationSource,
  OperationStatus,
  OperationType,
  PayoutRail,
} from './stablecoin.types.js';
import { TERMINAL_STATUSES } from './stablecoin.types.js';
import {
  type ExternalAccountPurpose,
  type ProviderOperationPlan,
  StablecoinProvider,
} from './provider/stablecoin-provider.js';
import { SANDBOX_PROVIDER_STEP_MS } from './provider/sandbox-stablecoin-provider.js';
import { requireProvisioned, StablecoinsService } from './stablecoins.service.js';

/** How long an operation waits for its funds (a wire, coins sent to the deposit address): the platform's days. */
export const FUNDING_WINDOW_MS = 7 * 86_400_000;

/** Static payout timing per rail (guidance, the reference's StablecoinEstimatedDelivery). */
const RAIL_TIMING: Record<PayoutRail, string> = {
  WIRE: 'same business day',
  ACH_CREDIT: '1-3 business days',
  SAME_DAY_ACH_CREDIT: 'same business day',
  RTP_CREDIT: 'within minutes',
};

/** The bank account types a payout rail reaches (a burn's fiat destination). */
const RAIL_ACCOUNT_TYPES: Record<PayoutRail, readonly string[]> = {
  WIRE: ['USD_ACCOUNT', 'SWIFT_ACCOUNT'],
  ACH_CREDIT: ['USD_ACCOUNT'],
  SAME_DAY_ACH_CREDIT: ['USD_ACCOUNT'],
  RTP_CREDIT: ['USD_ACCOUNT'],
};

const opNotFound = (id: string) =>
  new ApiError(
    'STABLECOIN_OPERATION_NOT_FOUND',
    `Stablecoin operation ${formatId('StablecoinOperation', id)} not found`,
    {
      details: { stablecoinOperationId: formatId('StablecoinOperation', id) },
    },
  );

type Variant = new () => object;

/** Validates a `{type, ...}` member against the class of its type; FieldErrors under `prefix`. */
function variantOf<T>(
  value: unknown,
  prefix: string,
  variants: Record<string, Variant>,
  errors: FieldError[],
): T | null {
  const type = (value as { type?: unknown }).type;
  const types = Object.keys(variants);
  if (typeof type !== 'string' || !types.includes(type)) {
    errors.push(fieldError(`${prefix}.type`, `${prefix}.type must be one of: ${types.join(', ')}`, { enum: types }));
    return null;
  }
  const checked = validateBody(variants[type], value);
  errors.push(...checked.errors.map((e) => ({ ...e, field: `${prefix}.${e.field}` })));
  return checked.errors.length ? null : (checked.value as T);
}

const MINT_VARIANTS: Record<string, Variant> = {
  WIRE: WireFundingSource,
  ACH_DEBIT: AchDebitFundingSource,
  SAME_DAY_ACH_DEBIT: AchDebitFundingSource,
  GRID_INTERNAL_ACCOUNT: GridInternalSource,
  PROVIDER_INTERNAL_BALANCE: ProviderBalanceFundingSource,
};
const BURN_VARIANTS: Record<string, Variant> = {
  EXTERNAL_ACCOUNT: TypeOnlySource,
  GRID_INTERNAL_ACCOUNT: GridInternalSource,
  PROVIDER_INTERNAL_BALANCE: TypeOnlySource,
};

/** The amount in coin units: digits, 1 to 2^53-1 (FieldError otherwise). */
function coinAmount(text: string | undefined, errors: FieldError[]): bigint | null {
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text)) return null;
  const amount = BigInt(text);
  if (amount < 1n || amount > BigInt(MAX_SAFE_MINOR_UNITS)) {
    errors.push(fieldError('amount', `amount must be between 1 and ${MAX_SAFE_MINOR_UNITS}`, { pattern: '^[0-9]+$' }));
    return null;
  }
  return amount;
}

/** Coin units to fiat cents; 400 STABLECOIN_AMOUNT_NOT_REPRESENTABLE when not a whole cent. */
export function fiatCents(amount: bigint, decimals: number): bigint {
  const unit = 10n ** BigInt(Math.max(0, decimals - 2));
  if (amount % unit !== 0n)
    throw new ApiError(
      'STABLECOIN_AMOUNT_NOT_REPRESENTABLE',
      `${amount} is not a whole cent at ${decimals} decimals: use a multiple of ${unit}`,
      { details: { amount: amount.toString(), decimals, multipleOf: unit.toString() } },
    );
  return (amount / unit) * 10n ** BigInt(Math.max(0, 2 - decimals));
}

/**
 * Mints and burns (docs/stablecoins.md): validated against the coin, its link and the accounts,
 * handed to the provider, and advanced through CREATED, PENDING_FUNDING, PENDING_PROVIDER,
 * PROCESSING to COMPLETED (or FAILED, EXPIRED), with a webhook for every status entered. Money moves
 * once, at COMPLETED: one balanced journal (the coin's supply and its fiat reserve) in the same
 * transaction as the status change and its event.
 */
@Injectable()
export class StablecoinOperationsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly coins: StablecoinsService,
    private readonly provider: StablecoinProvider,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
  ) {}

  async mint(platformId: string, coinId: string, body: unknown): Promise<StablecoinOperation> {
    const { value, errors } = validateBody(StablecoinMintRequest, body);
    const funding =
      value.fundingSource && typeof value.fundingSource === 'object' && !errors.some((e) => e.field === 'fundingSource')
        ? variantOf<{ type: string; externalAccountId?: string; accountId?: string }>(
            value.fundingSource,
            'fundingSource',
            MINT_VARIANTS,
            errors,
          )
        : null;
    const amount = coinAmount(value.amount, errors);
    if (errors.length || !funding || amount === null) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const { coin, link, fiat } = await this.prepare(m, platformId, coinId, amount);
      let source: OperationSource;
      const refs: Record<string, string> = {};
      switch (funding.type) {
        case 'GRID_INTERNAL_ACCOUNT':
        case 'PROVIDER_INTERNAL_BALANCE':
          throw new ApiError(
            'STABLECOIN_OPERATION_NOT_SUPPORTED',
            `fundingSource ${funding.type} is reserved for a later Grid-funded mint flow`,
            { details: { fundingSourceType: funding.type } },
          );
        case 'ACH_DEBIT':
        case 'SAME_DAY_ACH_DEBIT': {
          const account = await this.externalAccount(m, platformId, funding.externalAccountId!);
          this.requireBank(account, coin, ['USD_ACCOUNT'], `fundingSource ${funding.type}`);
          refs.sourceAddressId = await this.linkWithProvider(m, link, account, 'DEBIT');
          source = { type: funding.type, externalAccountId: formatId('ExternalAccount', account.id) };
          break;
        }
        default:
          source = { type: 'WIRE' };
      }
      const destination = await this.mintDestination(m, platformId, coin, link, value.destination.accountId, refs);
      return this.create(m, coin, link, {
        type: 'MINT',
        amount,
        fiat,
        source,
        destination,
        description: value.description ?? null,
        estimatedDelivery: null,
        refs,
      });
    });
  }

  async burn(platformId: string, coinId: string, body: unknown): Promise<StablecoinOperation> {
    const { value, errors } = validateBody(StablecoinBurnRequest, body);
    const sourceIn =
      value.source && typeof value.source === 'object' && !errors.some((e) => e.field === 'source')
        ? variantOf<{ type: string; accountId?: string }>(value.source, 'source', BURN_VARIANTS, errors)
        : null;
    const amount = coinAmount(value.amount, errors);
    if (errors.length || !sourceIn || amount === null) throw invalidInput(errors);
    return this.tx.run(async (m) => {
      const { coin, link, fiat } = await this.prepare(m, platformId, coinId, amount);
      let source: OperationSource;
      if (sourceIn.type === 'GRID_INTERNAL_ACCOUNT') {
        const accountId = await this.internalAccount(m, platformId, sourceIn.accountId!);
        requireEnabled(coin);
        throw new ApiError(
          'STABLECOIN_BURN_SOURCE_NOT_SUPPORTED',
          `Burning from Grid internal account ${accountId} needs an embedded wallet, which is not available yet`,
          { details: { sourceType: 'GRID_INTERNAL_ACCOUNT', accountId } },
        );
      } else if (sourceIn.type === 'PROVIDER_INTERNAL_BALANCE') {
        this.provider.requireInternalBalance(this.coins.providerRef(link), coin.symbol);
        source = { type: 'PROVIDER_INTERNAL_BALANCE' };
      } else source = { type: 'EXTERNAL_ACCOUNT' };
      const rail = value.destination.rail;
      const payout = await this.externalAccount(m, platformId, value.destination.externalAccountId);
      this.requireBank(payout, coin, RAIL_ACCOUNT_TYPES[rail], `destination rail ${rail}`);
      const refs = { destinationAddressId: await this.linkWithProvider(m, link, payout, 'PAYOUT') };
      // The coins burned must exist: what completed mints issued, less every burn not failed or expired.
      const [{ available }] = await m.query<Array<{ available: string }>>(
        `SELECT COALESCE(SUM(CASE WHEN operation_type = 'MINT' AND status = 'COMPLETED' THEN amount
                                  WHEN operation_type = 'BURN' AND status NOT IN ('FAILED', 'EXPIRED') THEN -amount
                                  ELSE 0 END), 0)::text AS available
           FROM stablecoin_operations WHERE stablecoin_id = $1 AND platform_id = $2`,
        [coin.id, coin.platformId],
      );
      if (BigInt(available) < amount)
        throw new ApiError(
          'INSUFFICIENT_FUNDS',
          `Only ${available} ${coin.symbol} units are outstanding and not already being burned`,
          { details: { available, requested: amount.toString() } },
        );
      return this.create(m, coin, link, {
        type: 'BURN',
        amount,
        fiat,
        source,
        destination: { accountId: formatId('ExternalAccount', payout.id), rail },
        description: value.description ?? null,
        estimatedDelivery: { rail, amount: fiat.toString(), currency: coin.baseCurrency, timing: RAIL_TIMING[rail] },
        refs,
      });
    });
  }

  /** The coin (locked: one coin's operations are created one at a time), its usable link, the fiat amount. */
  private async prepare(m: EntityManager, platformId: string, coinId: string, amount: bigint) {
    const coin = await this.coins.find(m, platformId, coinId, 'update');
    const link = await this.coins.findLink(m, platformId, coin.providerAccountId, 'share');
    this.coins.requireUsable(link);
    requireProvisioned(coin);
    return { coin, link, fiat: fiatCents(amount, coin.decimals) };
  }

  private async mintDestination(
    m: EntityManager,
    platformId: string,
    coin: StablecoinEntity,
    link: Parameters<StablecoinsService['providerRef']>[0],
    accountId: string,
    refs: Record<string, string>,
  ): Promise<OperationDestination> {
    if (accountId.startsWith('InternalAccount:')) {
      const id = await this.internalAccount(m, platformId, accountId);
      requireEnabled(coin);
      throw new ApiError(
        'STABLECOIN_OPERATION_NOT_SUPPORTED',
        `Minting to Grid internal account ${id} needs an embedded wallet, which is not available yet`,
        { details: { destinationAccountId: id } },
      );
    }
    const account = await this.externalAccount(m, platformId, accountId);
    if (account.customerId !== null || account.accountType !== 'SPARK_WALLET')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
        `A mint's destination must be a SPARK_WALLET external account of the platform; ${accountId} is ${account.customerId !== null ? "a customer's " : ''}${account.accountType}`,
        { details: { externalAccountId: accountId, accountType: account.accountType } },
      );
    this.requireActive(account);
    refs.destinationAddressId = await this.linkWithProvider(m, link, account, 'MINT_DESTINATION');
    return { accountId: formatId('ExternalAccount', account.id) };
  }

  private async externalAccount(m: EntityManager, platformId: string, id: string): Promise<ExternalAccountEntity> {
    const uuid = parseId('ExternalAccount', id);
    const account = uuid ? await m.findOne(ExternalAccountEntity, { where: { id: uuid, platformId } }) : null;
    if (!account || account.deletedAt !== null)
      throw new ApiError('STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND', `External account ${id} not found`, {
        details: { externalAccountId: id },
      });
    return account;
  }

  private async internalAccount(m: EntityManager, platformId: string, id: string): Promise<string> {
    const uuid = parseId('InternalAccount', id);
    if (uuid) await findOwned(m, InternalAccountEntity, platformId, { id: uuid }, () => accountNotFound(id));
    else throw accountNotFound(id);
    return id;
  }

  /** A bank account of the platform, in the coin's base currency, of a type the rail reaches, ACTIVE. */
  private requireBank(account: ExternalAccountEntity, coin: StablecoinEntity, types: readonly string[], what: string) {
    const id = formatId('ExternalAccount', account.id);
    if (account.customerId !== null || !types.includes(account.accountType) || account.currency !== coin.baseCurrency)
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED',
        `${what} needs a ${coin.baseCurrency} bank account of the platform (${types.join(' or ')}); ${id} is ${account.customerId !== null ? "a customer's " : ''}${account.currency} ${account.accountType}`,
        { details: { externalAccountId: id, accountType: account.accountType, currency: account.currency } },
      );
    this.requireActive(account);
  }

  private requireActive(account: ExternalAccountEntity): void {
    if (account.status !== 'ACTIVE')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED',
        `External account ${formatId('ExternalAccount', account.id)} is ${account.status}: only an ACTIVE account can be linked for stablecoin operations`,
        { details: { externalAccountId: formatId('ExternalAccount', account.id), status: account.status } },
      );
  }

  /**
   * Links the external account with the provider for `purpose` (the provider refuses with its codes)
   * and keeps its address id (stablecoin_external_account_links, found again on the next use).
   */
  private async linkWithProvider(
    m: EntityManager,
    link: Parameters<StablecoinsService['providerRef']>[0],
    account: ExternalAccountEntity,
    purpose: ExternalAccountPurpose,
  ): Promise<string> {
    const info = account.accountInfo as unknown as Record<string, unknown>;
    const found = [info.accountNumber, info.address, info.iban].find((v): v is string => typeof v === 'string');
    const identifier = found ?? account.id;
    const { providerAddressId } = this.provider.linkExternalAccount(this.coins.providerRef(link), {
      id: formatId('ExternalAccount', account.id),
      accountType: account.accountType,
      identifier,
      purpose,
    });
    await m.query(
      `INSERT INTO stablecoin_external_account_links
         (id, platform_id, provider_account_id, external_account_id, provider_address_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (platform_id, provider_account_id, external_account_id) DO NOTHING`,
      [newUuid(), link.platformId, link.id, account.id, providerAddressId, this.clock.now()],
    );
    return providerAddressId;
  }

  private async create(
    m: EntityManager,
    coin: StablecoinEntity,
    link: Parameters<StablecoinsService['providerRef']>[0],
    op: {
      type: OperationType;
      amount: bigint;
      fiat: bigint;
      source: OperationSource;
      destination: OperationDestination;
      description: string | null;
      estimatedDelivery: Record<string, string> | null;
      refs: Record<string, string>;
    },
  ): Promise<StablecoinOperation> {
    const id = newUuid();
    const plan: ProviderOperationPlan = this.provider.createOperation(this.coins.providerRef(link), {
      operationId: id,
      operationType: op.type,
      amount: op.amount,
      fiatAmount: op.fiat,
      fiatCurrency: coin.baseCurrency,
      symbol: coin.symbol,
      network: coin.network,
      sourceType: op.source.type,
      ...(op.destination.rail ? { payoutRail: op.destination.rail } : {}),
    });
    const now = this.clock.now();
    const row: StablecoinOperationEntity = {
      id,
      platformId: coin.platformId,
      stablecoinId: coin.id,
      providerAccountId: link.id,
      operationType: op.type,
      status: 'CREATED',
      amount: op.amount.toString(),
      fiatAmount: op.fiat.toString(),
      fiatCurrency: coin.baseCurrency,
      source: op.source,
      destination: op.destination,
      fundingInstructions: plan.fundingInstructions,
      estimatedDelivery: op.estimatedDelivery,
      providerOperationId: plan.providerOperationId,
      providerRefs: op.refs,
      providerStatus: plan.providerStatus,
      outcome: plan.outcome,
      failureReason: null,
      description: op.description,
      expiresAt: plan.firstStatus === 'PENDING_FUNDING' ? later(now, FUNDING_WINDOW_MS) : null,
      nextStepAt: later(this.realClock.now(), SANDBOX_PROVIDER_STEP_MS),
      createdAt: now,
      updatedAt: now,
    };
    await m.insert(StablecoinOperationEntity, row);
    const rendered = renderOperation(row, coin);
    await this.outbox.write(m, operationEvent(coin.platformId, rendered));
    return rendered;
  }

  async list(platformId: string, coinId: string, query: ListOperationsQuery): Promise<Page<StablecoinOperation>> {
    const coin = await this.coins.find(this.tx.manager, platformId, coinId);
    const qb = this.tx.manager
      .createQueryBuilder(StablecoinOperationEntity, 'o')
      .where('o.stablecoin_id = :coin AND o.platform_id = :platformId', { coin: coin.id, platformId });
    if (query.operationType) qb.andWhere('o.operation_type = :t', { t: query.operationType });
    return paginate(qb, query, (row) => renderOperation(row, coin));
  }

  async get(platformId: string, id: string): Promise<StablecoinOperation> {
    const m = this.tx.manager;
    const row = await findOwned(m, StablecoinOperationEntity, platformId, { id }, () => opNotFound(id));
    return renderOperation(row, await this.coins.find(m, platformId, row.stablecoinId));
  }

  /**
   * The sandbox reports the operation's funds received (a wire landed, coins reached the deposit
   * address): PENDING_FUNDING (passing through it from CREATED) to PENDING_PROVIDER. 409 CONFLICT for
   * an operation not waiting for funds, or whose funds never arrive (magic `...004`).
   */
  async fundsReceived(platformId: string, id: string): Promise<StablecoinOperation> {
    return this.tx.run(async (m) => {
      const row = await findOwned(m, StablecoinOperationEntity, platformId, { id }, () => opNotFound(id), 'update');
      const awaiting = row.expiresAt !== null && (row.status === 'CREATED' || row.status === 'PENDING_FUNDING');
      if (!awaiting || !this.provider.fundsCanArrive(row.outcome))
        throw new ApiError(
          'CONFLICT',
          awaiting
            ? `The sandbox's funds for ${formatId('StablecoinOperation', row.id)} never arrive (magic amount ...004): it will expire`
            : `Stablecoin operation ${formatId('StablecoinOperation', row.id)} is ${row.status}, not waiting for funds`,
          { details: { status: row.status } },
        );
      const coin = await this.coins.find(m, platformId, row.stablecoinId);
      const real = this.realClock.now();
      if (row.status === 'CREATED') await this.transition(m, row, coin, 'PENDING_FUNDING', { nextStepAt: null });
      noteAuditResource(formatId('StablecoinOperation', row.id));
      return this.transition(m, row, coin, 'PENDING_PROVIDER', {
        nextStepAt: later(real, SANDBOX_PROVIDER_STEP_MS),
        providerStatus: 'funds_received',
      });
    });
  }

  /**
   * One due step of a locked operation (the worker): expiry of funds that never came (on the
   * platform's clock), else the provider's next status once `next_step_at` passed (real time).
   * Answers whether it changed anything.
   */
  async step(
    m: EntityManager,
    row: StablecoinOperationEntity,
    business: BusinessTime,
    real: RealTime,
  ): Promise<boolean> {
    const coin = await m.findOneOrFail(StablecoinEntity, {
      where: { id: row.stablecoinId, platformId: row.platformId },
    });
    if ((row.status === 'CREATED' || row.status === 'PENDING_FUNDING') && row.expiresAt && row.expiresAt <= business) {
      await this.transition(m, row, coin, 'EXPIRED', {
        nextStepAt: null,
        providerStatus: 'expired',
        failureReason: 'FUNDING_NOT_RECEIVED',
      });
      return true;
    }
    if (row.nextStepAt === null || row.nextStepAt > real) return false;
    if (row.status === 'CREATED') {
      const awaitsFunds = row.expiresAt !== null;
      await this.transition(m, row, coin, awaitsFunds ? 'PENDING_FUNDING' : 'PENDING_PROVIDER', {
        nextStepAt: awaitsFunds ? null : later(real, SANDBOX_PROVIDER_STEP_MS),
        providerStatus: awaitsFunds ? 'awaiting_funds' : 'pending',
      });
      return true;
    }
    const next = this.provider.nextStep(row.status, row.outcome);
    if (!next) {
      await m.update(StablecoinOperationEntity, { id: row.id, platformId: row.platformId }, { nextStepAt: null });
      return false;
    }
    if (next.status === 'COMPLETED') await this.post(m, row, coin);
    await this.transition(m, row, coin, next.status, {
      nextStepAt: TERMINAL_STATUSES.includes(next.status) ? null : later(real, SANDBOX_PROVIDER_STEP_MS),
      providerStatus: next.providerStatus,
      failureReason: next.failureReason ?? null,
    });
    return true;
  }

  /**
   * The operation's one journal, at completion: a mint credits the coin's STABLECOIN_SUPPLY with the
   * coins issued (RAIL_CLEARING in the coin debited: they left on the network) and the
   * STABLECOIN_RESERVE with the fiat received (RAIL_CLEARING in the fiat debited); a burn the reverse.
   */
  private async post(m: EntityManager, row: StablecoinOperationEntity, coin: StablecoinEntity): Promise<void> {
    const sign = row.operationType === 'MINT' ? 1n : -1n;
    const n = BigInt(row.amount) * sign;
    const c = BigInt(row.fiatAmount) * sign;
    const p = row.platformId;
    await this.ledger.transfer(m, {
      platformId: p,
      lines: [
        { account: systemAccount('STABLECOIN_SUPPLY', p, coin.symbol), amount: n },
        { account: systemAccount('RAIL_CLEARING', p, coin.symbol), amount: -n },
        { account: systemAccount('STABLECOIN_RESERVE', p, row.fiatCurrency), amount: c },
        { account: systemAccount('RAIL_CLEARING', p, row.fiatCurrency), amount: -c },
      ],
      reason: row.operationType === 'MINT' ? 'STABLECOIN_MINT' : 'STABLECOIN_BURN',
      reference: formatId('StablecoinOperation', row.id),
    });
  }

  private async transition(
    m: EntityManager,
    row: StablecoinOperationEntity,
    coin: StablecoinEntity,
    status: OperationStatus,
    changes: Partial<Pick<StablecoinOperationEntity, 'nextStepAt' | 'providerStatus' | 'failureReason'>>,
  ): Promise<StablecoinOperation> {
    Object.assign(row, changes, { status, updatedAt: this.clock.now() });
    await m.update(
      StablecoinOperationEntity,
      { id: row.id, platformId: row.platformId },
      { ...changes, status, updatedAt: row.updatedAt },
    );
    const rendered = renderOperation(row, coin);
    await this.outbox.write(m, operationEvent(row.platformId, rendered));
    return rendered;
  }
}

const accountNotFound = (id: string) =>
  new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${id} not found`, { details: { accountId: id } });

/** 400 STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED unless the coin is ENABLED for Grid operations. */
function requireEnabled(coin: StablecoinEntity): void {
  if (coin.gridOperationsStatus !== 'ENABLED')
    throw new ApiError(
      'STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED',
      `Stablecoin ${formatId('Stablecoin', coin.id)} is ${coin.gridOperationsStatus} for Grid operations; this needs it ENABLED`,
      { details: { gridOperationsStatus: coin.gridOperationsStatus } },
    );
}
