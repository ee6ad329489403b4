import { Injectable, Logger } from '@nestjs/common';
import { DUE_PLATFORMS, perDuePlatform, PollingWorker } from '../common/polling-worker.js';
import { EntityManager } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import type { Card } from './card.dto.js';
import type { CardEntity } from './card.entity.js';
import { provisioningTarget } from './card-state-machine.js';
import { SYSTEM_ACTOR, type ProvisioningOutcome } from './card.types.js';
import { CardsRepository } from './cards.repository.js';
import { cardNotFound, CardsService } from './cards.service.js';
import { CardIssuer } from './issuer/card-issuer.js';

/** How often the worker looks for due provisionings ("about a second" after issuance). */
export const PROVISIONING_POLL_MS = 1000;
const BATCH = 50;

const REASONS = {
  ACTIVE: 'Provisioning completed by the issuer',
  CLOSED: 'Provisioning rejected by the issuer',
  PENDING_KYC: "Provisioned; waiting for the cardholder's KYC to be APPROVED again",
} as const;

/**
 * Completes card provisioning: in the background on worker processes (ROLE `worker` or `all`),
 * which claim due cards with FOR UPDATE SKIP LOCKED about every second, so any number of workers
 * share the work and never complete a card twice; and at once through the sandbox route when the
 * program provisions manually. A card whose cardholder's KYC is no longer APPROVED waits in
 * PENDING_KYC, and the worker continues it once KYC is approved again. Each transition is recorded
 * with `SYSTEM` as the actor and writes its CARD.STATUS_CHANGE.
 */
@Injectable()
export class CardProvisioningService extends PollingWorker {
  private readonly logger = new Logger('CardProvisioning');

  constructor(
    private readonly tx: TransactionService,
    private readonly cards: CardsRepository,
    private readonly service: CardsService,
    private readonly issuer: CardIssuer,
    private readonly clock: RealClock,
    private readonly runtime: Runtime,
  ) {
    super({
      runtime,
      intervalMs: PROVISIONING_POLL_MS,
      logger: new Logger('CardProvisioning'),
      failure: 'card provisioning run failed',
    });
  }

  /**
   * One pass: completes every due card (up to a batch) in one transaction; answers how many it
   * claimed. `platformId` limits it to one platform (tests drive it this way instead of a worker).
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    const now = this.clock.now();
    let done = 0;
    // Which platforms have cards due is one unlocked read across platforms (cross-shard:
    // card-provisioning-due-platforms); each platform's cards are then claimed pinned to it.
    const due = () => this.cards.provisioningDuePlatforms(this.tx.manager, now, DUE_PLATFORMS);
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const cards = await this.cards.claimProvisioning(m, now, limit, platformId);
        for (const card of cards)
          await this.complete(m, card, card.provisioningOutcome ?? (await this.issuer.provisioningOutcome(card)));
        done += cards.length;
        return cards.length;
      }),
    );
    return done;
  }

  /** `POST /sandbox/cards/{id}/simulate/provisioning`: the issuer's answer for a PROCESSING card, now. */
  async simulate(platformId: string, cardUuid: string, outcome: ProvisioningOutcome): Promise<Card> {
    return this.tx.run(async (m) => {
      const card = await this.cards.lockForUpdate(m, platformId, cardUuid);
      if (!card) throw cardNotFound(cardUuid);
      if (card.status !== 'PROCESSING')
        throw new ApiError(
          'INVALID_STATE_TRANSITION',
          `Only a PROCESSING card is being provisioned; this one is ${card.status}`,
        );
      const done = await this.complete(m, card, outcome);
      return done!;
    });
  }

  /** Applies the issuer's outcome to a locked PROCESSING or PENDING_KYC card; null when nothing changes. */
  async complete(m: EntityManager, card: CardEntity, outcome: ProvisioningOutcome): Promise<Card | null> {
    const kycApproved = outcome === 'ACTIVE' && (await this.cards.kycApproved(m, card.platformId, card.customerId));
    const to = provisioningTarget(card.status, outcome, kycApproved);
    if (to === null) return null;
    const next: CardEntity = { ...card };
    if (to === 'PENDING_KYC') {
      next.provisioningOutcome = outcome;
      next.provisioningDueAt = this.clock.now();
    } else {
      next.provisioningOutcome = null;
      next.provisioningDueAt = null;
    }
    return this.service.transition(m, next, {
      to,
      actor: SYSTEM_ACTOR,
      substatus: null,
      reason: REASONS[to],
      statusReason: to === 'CLOSED' ? 'ISSUER_REJECTED' : null,
    });
  }
}
