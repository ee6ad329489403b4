import { inDeliverySpan } from '../../tracing/trace-context.js';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import type { AttemptRecord, ClaimedEvent, CompletedAttempt, DeliveryTarget } from '../outbox.store.js';
import { signGridBody } from '../signing/grid-signature.js';
import { standardWebhookHeaders } from '../signing/standard-webhooks.js';
import { HttpDeliverer } from './http-deliverer.js';
import { decideAfterAttempt, type AttemptDecision } from './retry-policy.js';

export const ENDPOINT_NOT_SET = 'webhook endpoint not set';

/**
 * Signs and POSTs one event, and decides what the attempt means. Shared by the worker and the
 * synchronous sandbox test webhook; one keep-alive connection pool per process.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly deliverer: HttpDeliverer;

  constructor(
    config: AppConfig,
    private readonly clock: RealClock,
  ) {
    this.deliverer = new HttpDeliverer({
      allowPrivateTargets: config.allowPrivateWebhookTargets,
      maxSockets: Math.max(50, config.OUTBOX_CONCURRENCY),
      clock,
    });
  }

  /**
   * The headers of one attempt: `X-Grid-Signature` (ECDSA P-256 over the raw body, the same on
   * every attempt) and Standard Webhooks' `webhook-id` (the envelope id), `webhook-timestamp` (this
   * attempt) and `webhook-signature` (one `v1,` signature per live secret).
   */
  signedHeaders(event: Pick<ClaimedEvent, 'id' | 'body'>, target: DeliveryTarget, at: Date): Record<string, string> {
    return {
      'X-Grid-Signature': signGridBody(event.body, target.signing.privateKey),
      ...standardWebhookHeaders({
        id: formatId('Webhook', event.id),
        timestamp: at,
        body: event.body,
        secrets: target.signing.secrets,
      }),
    };
  }

  async send(event: ClaimedEvent, target: DeliveryTarget): Promise<CompletedAttempt> {
    const attempt = await this.attempt(event, target);
    const decidedAt = this.clock.now();
    const decision = decideAfterAttempt({
      type: event.type,
      attemptNumber: event.attemptCount + 1,
      retryingSince: event.retryingSince,
      now: decidedAt,
      result: attempt,
    });
    if (decision.status !== 'DELIVERED') this.logFailure(event, attempt, decision);
    return { event, attempt, decision, decidedAt };
  }

  /**
   * One line per failed attempt: which event, which attempt, what the receiver answered (status or
   * error) and what happens next. Never the request or response body, the endpoint URL (it may
   * carry credentials) or any signature.
   */
  private logFailure(event: ClaimedEvent, attempt: AttemptRecord, decision: AttemptDecision): void {
    this.logger.warn(
      {
        event: formatId('Webhook', event.id),
        platform: formatId('Platform', event.platformId),
        type: event.type,
        attempt: event.attemptCount + 1,
        status: attempt.status,
        error: attempt.error,
        durationMs: attempt.durationMs,
        ...(decision.status === 'PENDING' ? { nextAttemptAt: decision.nextAttemptAt.toISOString() } : { gaveUp: true }),
      },
      'webhook delivery failed',
    );
  }

  private async attempt(event: ClaimedEvent, target: DeliveryTarget): Promise<AttemptRecord> {
    const attemptedAt = this.clock.now();
    const failed = (error: string): AttemptRecord => ({
      attemptedAt,
      status: null,
      responseBody: '',
      retryAfterMs: null,
      error,
      durationMs: 0,
    });
    if (target.endpoint === null) return failed(ENDPOINT_NOT_SET);
    let headers: Record<string, string>;
    try {
      headers = this.signedHeaders(event, target, attemptedAt);
    } catch (error) {
      return failed(`signing failed: ${(error as Error).message}`);
    }
    const endpoint = target.endpoint;
    const attributes = { 'webhook.event_id': formatId('Webhook', event.id), 'webhook.type': event.type };
    return inDeliverySpan(event.traceContext, attributes, headers, async (span) => {
      const result = await this.deliverer.deliver(endpoint, event.body, headers);
      if (result.status !== null) span?.setAttribute('http.response.status_code', result.status);
      return { attemptedAt, ...result };
    });
  }

  onApplicationShutdown(): void {
    this.deliverer.close();
  }
}
