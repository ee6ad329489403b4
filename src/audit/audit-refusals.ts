import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { formatId, isUuid } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { TransactionService } from '../database/transaction.service.js';
import type { AuditRecord } from './audit-record.js';
import { AUDIT_INSERT_SQL, auditParameters } from './audit-insert.js';

/** One window's identical refusals: the first one's record, how many, the last one's time. */
interface Tally {
  record: AuditRecord;
  /** the client id the refused Basic credential named (resolved to its token when written) */
  clientId: string | null;
  count: number;
  lastSeen: Date;
}

const OVERFLOW = '\u0001overflow';

/**
 * Refused calls (401, 403, 429), counted rather than written one by one. In memory, per replica:
 * identical refusals (platform, actor, claimed client id, source address, operation, status, code)
 * within a window of AUDIT_REFUSAL_WINDOW_MS are one tally; when the window closes each tally is
 * appended as one audit event with its `count`, `createdAt` (first seen) and `lastSeen`, so a
 * flood writes at most AUDIT_REFUSAL_TALLIES + 1 rows per window, and a refusal costs no database
 * work on its request. A refused Basic credential's client id is resolved to its token and
 * platform then, in one query for the window. What a crash loses: the open window's counts.
 */
@Injectable()
export class AuditRefusals implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('audit');
  private tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tx: TransactionService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), this.config.AUDIT_REFUSAL_WINDOW_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Counts one refusal (`record` as it would have been written; `clientId` when no principal was known). */
  count(record: AuditRecord, clientId: string | null): void {
    const key = [
      record.platformId,
      record.actorId,
      clientId,
      record.sourceAddress,
      record.action,
      record.status,
      record.errorCode,
    ].join('\u0000');
    const tally = this.tallies.get(key);
    if (tally) {
      tally.count++;
      tally.lastSeen = record.createdAt;
      return;
    }
    if (this.tallies.size < this.config.AUDIT_REFUSAL_TALLIES) {
      this.tallies.set(key, { record, clientId, count: 1, lastSeen: record.createdAt });
      return;
    }
    const overflow = this.tallies.get(OVERFLOW);
    if (overflow) {
      overflow.count++;
      overflow.lastSeen = record.createdAt;
      return;
    }
    this.tallies.set(OVERFLOW, {
      record: {
        ...record,
        platformId: null,
        actorType: 'anonymous',
        actorId: null,
        action: 'refusals:overflow',
        resourceIds: [],
        errorCode: null,
        requestId: null,
        sourceAddress: null,
        userAgent: null,
      },
      clientId: null,
      count: 1,
      lastSeen: record.createdAt,
    });
  }

  /** Appends the open window's tallies (one event each) and starts a new window. Answers how many. */
  async flush(): Promise<number> {
    const tallies = [...this.tallies.values()];
    this.tallies = new Map();
    if (!tallies.length) return 0;
    try {
      const clientIds = [...new Set(tallies.map((t) => t.clientId).filter((c): c is string => c !== null))];
      const tokens = new Map<string, { id: string; platform_id: string }>();
      if (clientIds.length) {
        const rows = await this.tx.query<Array<{ client_id: string; id: string; platform_id: string }>>(
          'SELECT /* cross-shard: audit-refusal-tokens */ client_id, id, platform_id FROM api_tokens WHERE client_id = ANY($1::text[])',
          [clientIds],
        );
        for (const row of rows) if (isUuid(row.id)) tokens.set(row.client_id, row);
      }
      await this.tx.run(async (m) => {
        for (const t of tallies) {
          const token = t.clientId === null ? undefined : tokens.get(t.clientId);
          const record: AuditRecord = {
            ...t.record,
            ...(token && {
              platformId: token.platform_id,
              actorType: 'api_token',
              actorId: formatId('Token', token.id),
            }),
            count: t.count,
            lastSeen: t.lastSeen,
          };
          await m.query(AUDIT_INSERT_SQL, auditParameters(record));
        }
      });
      return tallies.length;
    } catch (error) {
      const lost = tallies.reduce((n, t) => n + t.count, 0);
      this.logger.error({ err: (error as Error).message, refusals: lost }, 'refusal counts not recorded');
      return 0;
    }
  }
}
