import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { findOwned, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { ApiError } from '../errors/api-error.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { OutboxAttemptEntity, OutboxEventEntity } from './outbox.entities.js';
import { OUTBOX_CHANNEL, OutboxService } from './outbox.service.js';
import { OutboxStore } from './outbox.store.js';
import type {
  ListWebhookEventsQuery,
  TestWebhookResponse,
  WebhookAttempt,
  WebhookEvent,
} from './webhook-events.dto.js';

export function renderWebhookEvent(row: OutboxEventEntity, attempts: OutboxAttemptEntity[]): WebhookEvent {
  return {
    id: formatId('Webhook', row.id),
    type: row.type,
    status: row.status,
    aggregateId: row.aggregateId,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt.toISOString() : null,
    payload: JSON.parse(row.body) as Record<string, unknown>,
    attempts: attempts.map((a): WebhookAttempt => ({
      attemptedAt: a.attemptedAt.toISOString(),
      durationMs: a.durationMs,
      responseStatus: a.responseStatus,
      responseBody: a.responseBody,
      error: a.error,
    })),
  };
}

/** The operator's view of the outbox (GET /webhook-events, redeliver) and the sandbox test webhook. */
@Injectable()
export class WebhookEventsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: RealClock,
    private readonly outbox: OutboxService,
    private readonly store: OutboxStore,
    private readonly sender: WebhookSender,
    private readonly config: PlatformConfigService,
  ) {}

  async list(platformId: string, query: ListWebhookEventsQuery): Promise<Page<WebhookEvent>> {
    const m = this.tx.manager;
    const qb = m.createQueryBuilder(OutboxEventEntity, 'e').where('e.platform_id = :platformId', { platformId });
    if (query.type) qb.andWhere('e.type = :type', { type: query.type });
    if (query.status) qb.andWhere('e.status = :status', { status: query.status });
    const page = await paginate(whereTimeRange(qb, 'e', query), query, (row) => row);
    const attempts = await this.attemptsOf(
      m,
      platformId,
      page.data.map((r) => r.id),
    );
    return { ...page, data: page.data.map((row) => renderWebhookEvent(row, attempts.get(row.id) ?? [])) };
  }

  async get(platformId: string, id: string): Promise<WebhookEvent> {
    const m = this.tx.manager;
    const row = await this.find(m, platformId, id);
    return renderWebhookEvent(row, (await this.attemptsOf(m, platformId, [row.id])).get(row.id) ?? []);
  }

  /**
   * Queues the event again, same envelope id and body, also when DELIVERED or FAILED: due now,
   * with a fresh backoff and 7-day window. A delivery in flight is not waited for (its outcome no
   * longer applies), so the receiver may see the id twice, which is what it deduplicates on.
   */
  async redeliver(platformId: string, id: string): Promise<WebhookEvent> {
    await this.tx.run(async (m) => {
      await this.find(m, platformId, id, 'update');
      const now = this.clock.now();
      await m.query(
        `UPDATE outbox_events SET status = 'PENDING', attempt_count = 0, next_attempt_at = $2, retrying_since = $2,
           locked_until = NULL, lock_token = NULL
         WHERE id = $1 AND platform_id = $3`,
        [id, now, platformId],
      );
      await m.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
    });
    return this.get(platformId, id);
  }

  /**
   * POST /sandbox/webhooks/test: writes a TEST event, sends it now under this request's own claim
   * and answers the receiver's response (TEST events are never retried). The event and its
   * attempt show in GET /webhook-events like any other.
   */
  async sendTest(platformId: string): Promise<TestWebhookResponse> {
    const event = await this.tx.run(async (m) => {
      const config = await this.config.load(m, platformId);
      if (!config.webhookEndpoint) {
        throw new ApiError('WEBHOOK_ENDPOINT_NOT_SET', 'No webhookEndpoint is configured: set it with PATCH /config');
      }
      const written = await this.outbox.write(m, {
        platformId,
        type: 'TEST',
        aggregateId: formatId('PlatformConfig', config.id),
        data: {},
      });
      return this.store.claimOne(m, written.uuid, platformId, this.clock.now());
    });
    const target = await this.store.target(platformId);
    const done = await this.sender.send(event, target);
    await this.store.record([done]);
    const { attempt } = done;
    const url = target.endpoint ?? '';
    if (done.decision.status !== 'DELIVERED') {
      const why = attempt.error ?? `the receiver answered ${attempt.status}`;
      throw new ApiError('WEBHOOK_DELIVERY_ERROR', `Test webhook to ${url} failed: ${why}`, {
        details: { url, response_status: attempt.status, response_body: attempt.responseBody, error: attempt.error },
      });
    }
    return { url, response_status: attempt.status!, response_body: attempt.responseBody };
  }

  private find(m: EntityManager, platformId: string, id: string, lock?: RowLock): Promise<OutboxEventEntity> {
    return findOwned(
      m,
      OutboxEventEntity,
      platformId,
      { id },
      () => new ApiError('NOT_FOUND', `Webhook event ${formatId('Webhook', id)} not found`),
      lock,
    );
  }

  private async attemptsOf(
    m: EntityManager,
    platformId: string,
    eventIds: string[],
  ): Promise<Map<string, OutboxAttemptEntity[]>> {
    const byEvent = new Map<string, OutboxAttemptEntity[]>();
    if (eventIds.length === 0) return byEvent;
    const rows = await m.find(OutboxAttemptEntity, {
      where: { platformId, eventId: In(eventIds) },
      order: { id: 'ASC' },
    });
    for (const row of rows) {
      const list = byEvent.get(row.eventId) ?? [];
      list.push(row);
      byEvent.set(row.eventId, list);
    }
    return byEvent;
  }
}
