import { Injectable, Logger } from '@nestjs/common';
import { type BusinessTime, RealClock } from '../common/clock.js';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../common/polling-worker.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { platformTimeSql } from '../sandbox-clock/platform-time-sql.js';
import { StablecoinOperationEntity } from './stablecoin.entities.js';
import { StablecoinOperationsService } from './stablecoin-operations.service.js';

/** How often the worker looks for stablecoin operations whose next step is due. */
export const STABLECOIN_POLL_MS = 500;
const BATCH = 50;

/**
 * Advances stablecoin operations on worker processes (ROLE `worker` or `all`): claims, FOR UPDATE SKIP
 * LOCKED, the operations whose provider step is due (`next_step_at`, RealClock) or whose funding
 * window closed (`expires_at`, the platform's business time: its Clock, compared here with
 * `platformTimeSql`, real time plus the platform's test-clock offset), and
 * takes the step (StablecoinOperationsService.step), each in a savepoint of its own.
 */
@Injectable()
export class StablecoinOperationsWorker extends PollingWorker {
  private readonly logger = new Logger('StablecoinOperationsWorker');

  constructor(
    private readonly tx: TransactionService,
    private readonly operations: StablecoinOperationsService,
    private readonly realClock: RealClock,
    runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({
      runtime,
      intervalMs: STABLECOIN_POLL_MS,
      logger: new Logger('StablecoinOperationsWorker'),
      failure: 'stablecoin operations run failed',
    });
  }

  /**
   * One pass (up to a batch); answers how many steps it took. `platformId` limits it (tests).
   * Which platforms have due operations is one unlocked read across platforms (cross-shard:
   * stablecoin-operations-due-platforms); each platform's are then claimed pinned to it.
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    let steps = 0;
    const real = this.realClock.now();
    const due = () => {
      const business = platformTimeSql(this.config.SANDBOX, 'o.platform_id', '$1');
      return duePlatformIds(
        this.tx.manager,
        `/* cross-shard: stablecoin-operations-due-platforms */
         SELECT o.platform_id FROM stablecoin_operations o
         WHERE o.next_step_at <= $1 OR (o.status IN ('CREATED', 'PENDING_FUNDING') AND o.expires_at <= ${business})
         GROUP BY o.platform_id ORDER BY min(o.created_at), o.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real],
      );
    };
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
        const { entities, raw } = await m
          .createQueryBuilder(StablecoinOperationEntity, 'o')
          .addSelect(business, 'business_now')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where('o.platform_id = :platformId', { platformId })
          .andWhere(
            `(o.next_step_at <= :real OR (o.status IN ('CREATED', 'PENDING_FUNDING') AND o.expires_at <= ${business}))`,
            { real },
          )
          .orderBy('o.id')
          .limit(limit)
          .getRawAndEntities<{ business_now: Date | string }>();
        for (const [i, row] of entities.entries()) {
          const now = new Date(raw[i].business_now) as BusinessTime;
          await m.query('SAVEPOINT stablecoin_operation');
          try {
            if (await this.operations.step(m, row, now, real)) steps += 1;
            await m.query('RELEASE SAVEPOINT stablecoin_operation');
          } catch (error) {
            await m.query('ROLLBACK TO SAVEPOINT stablecoin_operation');
            this.logger.error({ err: error, operation: `StablecoinOperation:${row.id}` }, 'stablecoin step failed');
          }
        }
        return entities.length;
      }),
    );
    return steps;
  }
}
