import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RealClock } from '../../common/clock.js';
import type { WrittenEvent } from '../outbox.service.js';
import { type AttemptRecord, type ClaimedEvent, OutboxStore } from '../outbox.store.js';
import { WebhookSender } from './webhook-sender.js';

/**
 * A webhook whose answer is part of a flow (the platform's approval of an incoming payment:
 * `INCOMING_PAYMENT.PENDING`, see `IN_FLOW_TYPES`), sent by its producer rather than the worker,
 * through the same signing, SSRF guard and attempt records: the producer writes the event and
 * `claim`s it in its own transaction (so no worker sends it as well), commits, then `send`s it and
 * reads the answer. Like `POST /sandbox/webhooks/test`, the event and its one attempt show in
 * `GET /webhook-events`. Should the producer die before sending, the claim's lease runs out and the
 * worker delivers it like any other event (its answer then decides nothing).
 */
@Injectable()
export class DirectDelivery {
  constructor(
    private readonly store: OutboxStore,
    private readonly sender: WebhookSender,
    private readonly clock: RealClock,
  ) {}

  /** Leases the event just written, in the producer's transaction. */
  claim(m: EntityManager, written: WrittenEvent): Promise<ClaimedEvent> {
    return this.store.claimOne(m, written.uuid, written.platformId, this.clock.now());
  }

  /** Signs and POSTs it now (after the producer's commit), records the attempt, answers it. */
  async send(event: ClaimedEvent): Promise<AttemptRecord> {
    const target = await this.store.target(event.platformId);
    const done = await this.sender.send(event, target);
    await this.store.record([done]);
    return done.attempt;
  }
}
