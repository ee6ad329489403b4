var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { provisioningTarget } from './card-state-machine.js';
import { SYSTEM_ACTOR } from './card.types.js';
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
};
/**
 * Completes card provisioning: in the background on worker processes (ROLE `worker` or `all`),
 * which claim due cards with FOR UPDATE SKIP LOCKED about every second, so any number of workers
 * share the work and never complete a card twice; and at once through the sandbox route when the
 * program provisions manually. A card whose cardholder's KYC is no longer APPROVED waits in
 * PENDING_KYC, and the worker continues it once KYC is approved again. Each transition is recorded
 * with `SYSTEM` as the actor and writes its CARD.STATUS_CHANGE.
 */
let CardProvisioningService = class CardProvisioningService {
    tx;
    cards;
    service;
    issuer;
    clock;
    runtime;
    logger = new Logger('CardProvisioning');
    timer = null;
    inFlight = null;
    constructor(tx, cards, service, issuer, clock, runtime) {
        this.tx = tx;
        this.cards = cards;
        this.service = service;
        this.issuer = issuer;
        this.clock = clock;
        this.runtime = runtime;
    }
    onApplicationBootstrap() {
        if (!this.runtime.runWorker)
            return;
        this.timer = setInterval(() => this.tick(), PROVISIONING_POLL_MS);
        this.timer.unref();
    }
    async beforeApplicationShutdown() {
        if (this.timer)
            clearInterval(this.timer);
        this.timer = null;
        await this.inFlight;
    }
    tick() {
        if (this.inFlight)
            return;
        this.inFlight = this.runOnce()
            .then(() => undefined)
            .catch((error) => this.logger.error({ err: error }, 'card provisioning run failed'))
            .finally(() => {
            this.inFlight = null;
        });
    }
    /**
     * One pass: completes every due card (up to a batch) in one transaction; answers how many it
     * claimed. `platformId` limits it to one platform (tests drive it this way instead of a worker).
     */
    async runOnce(options = {}) {
        return this.tx.run(async (m) => {
            const due = await this.cards.claimProvisioning(m, this.clock.now(), BATCH, options.platformId ?? null);
            for (const card of due)
                await this.complete(m, card, card.provisioningOutcome ?? (await this.issuer.provisioningOutcome(card)));
            return due.length;
        });
    }
    /** `POST /sandbox/cards/{id}/simulate/provisioning`: the issuer's answer for a PROCESSING card, now. */
    async simulate(platformId, cardUuid, outcome) {
        return this.tx.run(async (m) => {
            const card = await this.cards.lockForUpdate(m, platformId, cardUuid);
            if (!card)
                throw cardNotFound(cardUuid);
            if (card.status !== 'PROCESSING')
                throw new ApiError('INVALID_STATE_TRANSITION', `Only a PROCESSING card is being provisioned; this one is ${card.status}`);
            const done = await this.complete(m, card, outcome);
            return done;
        });
    }
    /** Applies the issuer's outcome to a locked PROCESSING or PENDING_KYC card; null when nothing changes. */
    async complete(m, card, outcome) {
        const kycApproved = outcome === 'ACTIVE' && (await this.cards.kycApproved(m, card.customerId));
        const to = provisioningTarget(card.status, outcome, kycApproved);
        if (to === null)
            return null;
        const next = { ...card };
        if (to === 'PENDING_KYC') {
            next.provisioningOutcome = outcome;
            next.provisioningDueAt = this.clock.now();
        }
        else {
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
};
CardProvisioningService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService,
        CardsRepository,
        CardsService,
        CardIssuer,
        Clock,
        Runtime])
], CardProvisioningService);
export { CardProvisioningService };
//# sourceMappingURL=card-provisioning.service.js.map