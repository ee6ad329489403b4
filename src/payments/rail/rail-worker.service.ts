import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../../common/polling-worker.js';
import { type BusinessTime, later, RealClock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import { Runtime } from '../../config/config.module.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ExternalAccountEntity } from '../../external-accounts/external-account.entity.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import { QuoteEntity } from '../quotes/quote.entity.js';
import { QuoteExecutionService } from '../quotes/quote-execution.service.js';
import { RailAdapter, type RailNews, type RailPayment, RailPaymentRefused } from './rail.js';
import { RailNewsApplier } from './rail-news.service.js';
import { SandboxRailAdapter } from './sandbox-rail.js';

/** How often the worker looks for payouts to hand to the rail, sandbox news and polls due. */
export const RAIL_POLL_MS = 500;
/** How long a claimed hand-off is the claimer's: past it (a crash), another pass sends again, same key. */
export const RAIL_SEND_LEASE_MS = 60_000;
/** Backoff of a retryable hand-off failure: doubling from this, capped at RAIL_SEND_MAX_BACKOFF_MS. */
export const RAIL_SEND_BACKOFF_MS = 5_000;
export const RAIL_SEND_MAX_BACKOFF_MS = 3_600_000;
const BATCH = 50;

/** A payout claimed for its hand-off. */
interface Claimed {
  id: string;
  platformId: string;
  payment: RailPayment;
  attempts: number;
}

/**
 * Drives the payout rail on worker processes (ROLE `worker` or `all`); each pass:
 *
 * 1. the sandbox rail's due news (PAYOUT_RAIL=sandbox only), applied through RailNewsApplier;
 * 2. hand-offs: claims PENDING payouts whose `rail_due_real_at` came (set by the execute) with
 *    FOR UPDATE SKIP LOCKED, moves it one lease ahead and commits the claim; then calls
 *    `RailAdapter.send` outside any transaction (our transaction id is the provider's idempotency
 *    key), and records the provider's payment id and news in a new transaction. A crash between
 *    the call and the record leaves the lease to expire: the next pass sends again with the same
 *    key and the provider answers the payment it already has. A retryable failure backs off
 *    (doubling), a refusal (RailPaymentRefused) fails the payout and refunds it;
 * 3. reconciliation: payouts handed off and still without final news when their
 *    `rail_settles_business_at` came (the rail's expected settlement, on the platform's clock)
 *    are asked about (`RailAdapter.fetch`) and the answer goes through the same applier;
 * 4. transactions left PENDING_AUTHORIZATION whose quote expired: EXPIRED.
 *
 * Two clocks (src/common/schedules.ts): `rail_due_real_at` is infrastructure time (RealClock),
 * `rail_settles_business_at` the platform's business time (its Clock; claimed with
 * `platformTimeSql`, real time plus the platform's test-clock offset, in the same statement).
 * `runOnce` answers how many status steps it took (tests drive it by hand).
 */
@Injectable()
export class RailWorker extends PollingWorker {
  private readonly logger = new Logger('RailWorker');

  constructor(
    private readonly tx: TransactionService,
    private readonly payments: QuoteExecutionService,
    private readonly rail: RailAdapter,
    private readonly news: RailNewsApplier,
    private readonly realClock: RealClock,
    private readonly runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({ runtime, intervalMs: RAIL_POLL_MS, logger: new Logger('RailWorker'), failure: 'rail run failed' });
  }

  /**
   * One pass (a platform's only with `platformId`: tests drive it this way). Each of its parts
   * first reads, unlocked and across platforms, which platforms have work due (one tagged
   * cross-shard statement each, see src/database/distribution.json), then claims each platform's
   * pinned to it (FOR UPDATE SKIP LOCKED), up to a batch per part.
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    let steps = 0;
    if (this.rail instanceof SandboxRailAdapter) steps += await this.sandboxNews(this.rail, options);
    if (this.rail.name !== 'none') {
      steps += await this.handOff(options);
      steps += await this.reconcile(options);
    }
    return steps + (await this.expireAwaiting(options));
  }

  private async sandboxNews(sandbox: SandboxRailAdapter, options: { platformId?: string }): Promise<number> {
    let steps = 0;
    const due = () => sandbox.duePlatforms(this.tx.manager, DUE_PLATFORMS);
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const { news, taken } = await sandbox.takeDue(m, platformId, limit);
        steps += await this.news.apply(m, news);
        return taken;
      }),
    );
    return steps;
  }

  private async handOff(options: { platformId?: string }): Promise<number> {
    const claimed = await this.claimSends(options);
    let steps = 0;
    for (const c of claimed) {
      let answer: { providerRef: string; news: RailNews[] } | null = null;
      let failure: unknown = null;
      try {
        answer = await this.rail.send(c.payment);
      } catch (error) {
        failure = error;
      }
      steps += await this.tx.run(async (m) => {
        const row = await m.findOne(OutgoingTransactionEntity, {
          where: { id: c.id, platformId: c.platformId },
          lock: { mode: 'pessimistic_write' },
        });
        if (!row) return 0;
        if (answer) return this.recordSent(m, row, answer);
        return this.recordFailure(m, row, c, failure);
      });
    }
    return steps;
  }

  /**
   * Claims due hand-offs (one transaction per platform, committed before any call): the lease
   * moves their due time. Which platforms have some: cross-shard rail-handoff-due-platforms.
   */
  private async claimSends(options: { platformId?: string }): Promise<Claimed[]> {
    const real = this.realClock.now();
    const due = () =>
      duePlatformIds(
        this.tx.manager,
        `/* cross-shard: rail-handoff-due-platforms */
         SELECT t.platform_id FROM outgoing_transactions t
         WHERE t.status = 'PENDING' AND t.destination_kind = 'ExternalAccount' AND t.rail_provider_ref IS NULL
           AND t.rail_due_real_at <= $1
         GROUP BY t.platform_id ORDER BY min(t.rail_due_real_at), t.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real],
      );
    const claimed: Claimed[] = [];
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const rows = await m
          .createQueryBuilder(OutgoingTransactionEntity, 't')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where('t.platform_id = :platformId', { platformId })
          .andWhere(
            `t.status = 'PENDING' AND t.destination_kind = 'ExternalAccount' AND t.rail_provider_ref IS NULL
               AND t.rail_due_real_at <= :real`,
            { real },
          )
          .orderBy('t.rail_due_real_at')
          .addOrderBy('t.id')
          .limit(limit)
          .getMany();
        if (rows.length === 0) return 0;
        const accounts = new Map(
          (
            await m
              .createQueryBuilder(ExternalAccountEntity, 'e')
              .where('e.platform_id = :platformId', { platformId })
              .andWhere('e.id IN (:...ids)', { ids: [...new Set(rows.map((r) => r.destinationAccountId))] })
              .getMany()
          ).map((a) => [a.id, a]),
        );
        for (const row of rows) {
          const attempts = row.railSendAttempts + 1;
          await m.update(
            OutgoingTransactionEntity,
            { id: row.id, platformId },
            {
              railSendAttempts: attempts,
              railProvider: this.rail.name,
              railDueRealAt: later(real, RAIL_SEND_LEASE_MS),
            },
          );
          claimed.push({
            id: row.id,
            platformId,
            attempts,
            payment: railPayment(row, accounts.get(row.destinationAccountId)),
          });
        }
        return rows.length;
      }),
    );
    return claimed;
  }

  /** The provider took it: its payment id, its news, the reconciliation poll's first due time. */
  private async recordSent(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    answer: { providerRef: string; news: RailNews[] },
  ): Promise<number> {
    const now = await this.businessNow(m, row.platformId);
    if (row.railProviderRef === null) {
      await m.update(
        OutgoingTransactionEntity,
        { id: row.id, platformId: row.platformId },
        {
          railProvider: this.rail.name,
          railProviderRef: answer.providerRef,
          railDueRealAt: null,
          railSentAt: this.realClock.now(),
          railSettlesBusinessAt: later(now, this.rail.expectedSettlementMs(row.paymentRail)),
        },
      );
    }
    return this.news.apply(m, ofPlatform(answer.news, row.platformId));
  }

  /** A hand-off that failed: refused for good (FAILED, refunded) or tried again later (backoff). */
  private async recordFailure(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    claimed: Claimed,
    failure: unknown,
  ): Promise<number> {
    if (row.status !== 'PENDING' || row.railProviderRef !== null) return 0;
    if (failure instanceof RailPaymentRefused) {
      this.logger.warn(
        { transactionId: formatId('Transaction', row.id), reason: failure.message },
        'rail refused a payout',
      );
      const now = await this.businessNow(m, row.platformId);
      await this.payments.railUpdate(m, row, 'FAILED', now, { reason: failure.message });
      return 1;
    }
    const backoff = Math.min(RAIL_SEND_BACKOFF_MS * 2 ** (claimed.attempts - 1), RAIL_SEND_MAX_BACKOFF_MS);
    this.logger.warn(
      { transactionId: formatId('Transaction', row.id), attempts: claimed.attempts, err: failure },
      'rail hand-off failed; retrying with the same idempotency key',
    );
    await m.update(
      OutgoingTransactionEntity,
      { id: row.id, platformId: row.platformId },
      { railDueRealAt: later(this.realClock.now(), backoff) },
    );
    return 0;
  }

  /**
   * Payouts handed off, without final news, whose poll came (on the platform's clock): claimed
   * (SKIP LOCKED, per platform: cross-shard rail-reconcile-due-platforms says which) and moved one
   * expected settlement ahead, then asked about outside the transaction, and the answer applied
   * in a new one.
   */
  private async reconcile(options: { platformId?: string }): Promise<number> {
    const real = this.realClock.now();
    const due = () => {
      const business = platformTimeSql(this.config.SANDBOX, 't.platform_id', '$1');
      return duePlatformIds(
        this.tx.manager,
        `/* cross-shard: rail-reconcile-due-platforms */
         SELECT t.platform_id FROM outgoing_transactions t
         WHERE t.status IN ('PENDING', 'PROCESSING') AND t.rail_provider_ref IS NOT NULL AND t.rail_provider = $2
           AND t.rail_settles_business_at <= ${business}
         GROUP BY t.platform_id ORDER BY min(t.rail_settles_business_at), t.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real, this.rail.name],
      );
    };
    const claimed: OutgoingTransactionEntity[] = [];
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
        const { entities, raw } = await m
          .createQueryBuilder(OutgoingTransactionEntity, 't')
          .addSelect(`${business}`, 'business_now')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where('t.platform_id = :platformId', { platformId })
          .andWhere(
            `t.status IN ('PENDING', 'PROCESSING') AND t.rail_provider_ref IS NOT NULL AND t.rail_provider = :provider
               AND t.rail_settles_business_at <= ${business}`,
            { real, provider: this.rail.name },
          )
          .orderBy('t.rail_settles_business_at')
          .limit(limit)
          .getRawAndEntities<{ business_now: Date | string }>();
        for (const [i, row] of entities.entries()) {
          const now = new Date(raw[i].business_now) as BusinessTime;
          await m.update(
            OutgoingTransactionEntity,
            { id: row.id, platformId },
            { railSettlesBusinessAt: later(now, this.rail.expectedSettlementMs(row.paymentRail)) },
          );
        }
        claimed.push(...entities);
        return entities.length;
      }),
    );
    let steps = 0;
    for (const row of claimed) {
      let news: RailNews[];
      try {
        news = (await this.rail.fetch(row.railProviderRef!, formatId('Transaction', row.id), row.platformId)).map(
          (n) => ({ ...n, platformId: row.platformId }),
        );
      } catch (error) {
        this.logger.warn({ transactionId: formatId('Transaction', row.id), err: error }, 'rail reconciliation failed');
        continue;
      }
      steps += await this.tx.run((m) => this.news.apply(m, ofPlatform(news, row.platformId)));
    }
    return steps;
  }

  /** The platform's business time now (its test-clock offset in sandbox). */
  private async businessNow(m: EntityManager, platformId: string): Promise<BusinessTime> {
    const business = platformTimeSql(this.config.SANDBOX, '$2', '$1');
    const [{ now }] = await m.query<Array<{ now: Date | string }>>(`SELECT ${business} AS now, $2::uuid AS platform`, [
      this.realClock.now(),
      platformId,
    ]);
    return new Date(now) as BusinessTime;
  }

  /**
   * Transactions left PENDING_AUTHORIZATION (an execution asked for before the quote's SCA
   * authorization) whose quote expired on the platform's clock (`quotes.expires_at`, business time,
   * claimed with `platformTimeSql`): EXPIRED with their event (QuoteExecutionService.expireAwaiting).
   * Which platforms have some: cross-shard rail-expire-awaiting-due-platforms; then per platform.
   */
  private async expireAwaiting(options: { platformId?: string }): Promise<number> {
    const real = this.realClock.now();
    const due = () => {
      const business = platformTimeSql(this.config.SANDBOX, 'q.platform_id', '$1');
      return duePlatformIds(
        this.tx.manager,
        `/* cross-shard: rail-expire-awaiting-due-platforms */
         SELECT q.platform_id FROM quotes q
         JOIN outgoing_transactions t ON t.platform_id = q.platform_id AND t.id = q.transaction_id
         WHERE t.status = 'PENDING_AUTHORIZATION' AND q.expires_at <= ${business}
         GROUP BY q.platform_id ORDER BY min(q.expires_at), q.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real],
      );
    };
    let expired = 0;
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        // The quote is locked first, as execute and authorize lock it before its transaction.
        const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
        const due = await m
          .createQueryBuilder(QuoteEntity, 'q')
          .select('q.transaction_id', 'transaction_id')
          .addSelect(`${business}`, 'business_now')
          .innerJoin(OutgoingTransactionEntity, 't', 't.platform_id = q.platform_id AND t.id = q.transaction_id')
          .setLock('pessimistic_write', undefined, ['q'])
          .setOnLocked('skip_locked')
          .where('q.platform_id = :platformId', { platformId })
          .andWhere(`t.status = 'PENDING_AUTHORIZATION' AND q.expires_at <= ${business}`, { real })
          .orderBy('q.id')
          .limit(limit)
          .getRawMany<{ transaction_id: string; business_now: Date | string }>();
        for (const { transaction_id: id, business_now: now } of due) {
          const row = await m.findOne(OutgoingTransactionEntity, {
            where: { id, platformId },
            lock: { mode: 'pessimistic_write' },
          });
          if (row && (await this.payments.expireAwaiting(m, row, new Date(now)))) expired += 1;
        }
        return due.length;
      }),
    );
    return expired;
  }
}

/** News the worker brought for a payout of `platformId`'s: the applier pins that platform. */
function ofPlatform(news: RailNews[], platformId: string): RailNews[] {
  return news.map((n) => ({ ...n, platformId }));
}

/** A payout as the rail needs it: our ids formatted, the destination from our external account. */
export function railPayment(row: OutgoingTransactionEntity, account: ExternalAccountEntity | undefined): RailPayment {
  const info = (account?.accountInfo ?? {}) as Record<string, unknown>;
  const beneficiary = info.beneficiary as Record<string, unknown> | undefined;
  const business = beneficiary?.beneficiaryType === 'BUSINESS';
  const name =
    (business ? beneficiary?.legalName : beneficiary?.fullName) ?? account?.beneficiaryVerifiedData?.fullName;
  return {
    transactionId: formatId('Transaction', row.id),
    platformId: formatId('Platform', row.platformId),
    amount: BigInt(row.receivedAmount),
    currency: row.receivingCurrency,
    paymentRail: row.paymentRail,
    sendingAmount: BigInt(row.sentAmount),
    ...(row.description ? { description: row.description } : {}),
    destination: {
      externalAccountId: formatId('ExternalAccount', row.destinationAccountId),
      accountType: account?.accountType ?? (typeof info.accountType === 'string' ? info.accountType : ''),
      beneficiaryName: typeof name === 'string' ? name : '',
      beneficiaryKind: business ? 'BUSINESS' : 'INDIVIDUAL',
      currency: account?.currency ?? row.receivingCurrency,
      accountInfo: info,
    },
  };
}
