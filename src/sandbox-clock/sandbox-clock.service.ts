import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RealClock, repinPlatformClock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { validateBody } from '../common/validate-body.js';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { SandboxClockOffsets } from './clock-offsets.js';
import { SandboxClockAdvanceEntity } from './sandbox-clock.entity.js';
import {
  ListSandboxClockAdvancesQuery,
  MAX_ADVANCE_DAYS,
  MAX_ADVANCE_SECONDS,
  SandboxClock,
  SandboxClockAdvance,
  SandboxClockAdvanceRequest,
} from './sandbox-clock.dto.js';
import { noteAuditResource } from '../audit/audit-trail.js';

const render = (now: Date, offsetMs: number): SandboxClock => ({
  time: new Date(now.getTime() + offsetMs).toISOString(),
  offsetSeconds: Math.floor(offsetMs / 1000),
});

const renderAdvance = (row: SandboxClockAdvanceEntity): SandboxClockAdvance => ({
  id: formatId('SandboxClockAdvance', row.id),
  from: row.fromTime.toISOString(),
  to: row.toTime.toISOString(),
  tokenId: formatId('Token', row.tokenId),
  createdAt: row.createdAt.toISOString(),
});

/**
 * A sandbox platform's test clock (docs/test-clocks.md): its time is real time plus an offset that
 * only grows. Reads real time (`RealClock`) and the stored offset itself, never the request's
 * pinned reading: an advance decides from the latest offset, under the clock row's lock.
 */
@Injectable()
export class SandboxClockService {
  constructor(
    private readonly tx: TransactionService,
    private readonly realClock: RealClock,
    private readonly offsets: SandboxClockOffsets,
  ) {}

  async get(platformId: string): Promise<SandboxClock> {
    const rows = await this.tx.manager.query<Array<{ offset_ms: string }>>(
      'SELECT offset_ms FROM sandbox_clocks WHERE platform_id = $1',
      [platformId],
    );
    return render(this.realClock.now(), rows.length ? Number(rows[0].offset_ms) : 0);
  }

  async advance(platformId: string, tokenId: string, body: unknown): Promise<SandboxClock> {
    const { value, errors } = validateBody(SandboxClockAdvanceRequest, body);
    const reported = new Set(errors.map((e) => e.field));
    if (!reported.has('body')) {
      const given = (['to', 'seconds'] as const).filter((f) => (value as Record<string, unknown>)[f] !== undefined);
      if (given.length === 0) errors.push(fieldError('to', 'one of to and seconds is required'));
      if (given.length === 2) errors.push(fieldError('seconds', 'give either to or seconds, not both'));
    }
    if (value.to !== undefined && !reported.has('to') && Number.isNaN(Date.parse(value.to)))
      errors.push(fieldError('to', 'to must be a valid ISO 8601 date-time', { format: 'date-time' }));
    if (errors.length) throw invalidInput(errors);

    const result = await this.tx.run(async (m) => {
      const offsetMs = await this.lockOffset(m, platformId);
      const now = this.realClock.now();
      const from = new Date(now.getTime() + offsetMs);
      const to = value.seconds !== undefined ? new Date(from.getTime() + value.seconds * 1000) : new Date(value.to!);
      const timeErrors = this.checkTarget(from, to, value.seconds === undefined ? 'to' : 'seconds');
      if (timeErrors.length) throw invalidInput(timeErrors);
      const next = to.getTime() - now.getTime();
      await m.query('UPDATE sandbox_clocks SET offset_ms = $2, updated_at = $3 WHERE platform_id = $1', [
        platformId,
        next,
        now,
      ]);
      const advanceId = newUuid();
      noteAuditResource(formatId('SandboxClockAdvance', advanceId));
      await m.insert(SandboxClockAdvanceEntity, {
        id: advanceId,
        platformId,
        tokenId,
        fromTime: from,
        toTime: to,
        createdAt: now,
      });
      await this.offsets.announce(m, platformId, next);
      // Applied here only once committed (under an Idempotency-Key, the interceptor's transaction
      // commits after this handler): a rolled-back advance never moves this process's clock.
      this.tx.afterCommit(m, () => this.offsets.advanced(platformId, next));
      return { now, next };
    });
    // The rest of this request runs at the new time: its idempotency record is stamped with it, so
    // a replay within the key's lifetime (24 hours of the platform's time) finds it.
    repinPlatformClock(result.next);
    return render(result.now, result.next);
  }

  list(platformId: string, query: ListSandboxClockAdvancesQuery): Promise<Page<SandboxClockAdvance>> {
    const qb = this.tx.manager
      .createQueryBuilder(SandboxClockAdvanceEntity, 'a')
      .where('a.platform_id = :platformId', { platformId });
    return paginate(qb, query, renderAdvance);
  }

  /** The platform's offset, its clock row created (at 0) and locked: concurrent advances queue. */
  private async lockOffset(m: EntityManager, platformId: string): Promise<number> {
    await m.query(
      `INSERT INTO sandbox_clocks (platform_id, offset_ms, updated_at) VALUES ($1, 0, $2)
       ON CONFLICT (platform_id) DO NOTHING`,
      [platformId, this.realClock.now()],
    );
    const rows = await m.query<Array<{ offset_ms: string }>>(
      'SELECT offset_ms FROM sandbox_clocks WHERE platform_id = $1 FOR UPDATE',
      [platformId],
    );
    return Number(rows[0].offset_ms);
  }

  /** Forward only, and at most 400 days in one advance. */
  private checkTarget(from: Date, to: Date, field: 'to' | 'seconds'): FieldError[] {
    if (to.getTime() <= from.getTime())
      return [
        fieldError(
          field,
          `the clock only moves forward: ${to.toISOString()} is not after the platform's time ${from.toISOString()}`,
        ),
      ];
    if (to.getTime() - from.getTime() > MAX_ADVANCE_SECONDS * 1000)
      return [fieldError(field, `an advance moves the clock at most ${MAX_ADVANCE_DAYS} days`)];
    return [];
  }
}
