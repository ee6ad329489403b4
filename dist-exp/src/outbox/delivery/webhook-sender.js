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
import { Clock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import { signGridBody } from '../signing/grid-signature.js';
import { standardWebhookHeaders } from '../signing/standard-webhooks.js';
import { HttpDeliverer } from './http-deliverer.js';
import { decideAfterAttempt } from './retry-policy.js';
export const ENDPOINT_NOT_SET = 'webhook endpoint not set';
/**
 * Signs and POSTs one event, and decides what the attempt means. Shared by the worker and the
 * synchronous sandbox test webhook; one keep-alive connection pool per process.
 */
let WebhookSender = class WebhookSender {
    clock;
    logger = new Logger('webhooks');
    deliverer;
    constructor(config, clock) {
        this.clock = clock;
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
    signedHeaders(event, target, at) {
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
    async send(event, target) {
        const attempt = await this.attempt(event, target);
        const decidedAt = this.clock.now();
        const decision = decideAfterAttempt({
            type: event.type,
            attemptNumber: event.attemptCount + 1,
            retryingSince: event.retryingSince,
            now: decidedAt,
            result: attempt,
        });
        if (decision.status !== 'DELIVERED')
            this.logFailure(event, attempt, decision);
        return { event, attempt, decision, decidedAt };
    }
    /**
     * One line per failed attempt: which event, which attempt, what the receiver answered (status or
     * error) and what happens next. Never the request or response body, the endpoint URL (it may
     * carry credentials) or any signature.
     */
    logFailure(event, attempt, decision) {
        this.logger.warn({
            event: formatId('Webhook', event.id),
            platform: formatId('Platform', event.platformId),
            type: event.type,
            attempt: event.attemptCount + 1,
            status: attempt.status,
            error: attempt.error,
            durationMs: attempt.durationMs,
            ...(decision.status === 'PENDING' ? { nextAttemptAt: decision.nextAttemptAt.toISOString() } : { gaveUp: true }),
        }, 'webhook delivery failed');
    }
    async attempt(event, target) {
        const attemptedAt = this.clock.now();
        const failed = (error) => ({
            attemptedAt,
            status: null,
            responseBody: '',
            retryAfterMs: null,
            error,
            durationMs: 0,
        });
        if (target.endpoint === null)
            return failed(ENDPOINT_NOT_SET);
        let headers;
        try {
            headers = this.signedHeaders(event, target, attemptedAt);
        }
        catch (error) {
            return failed(`signing failed: ${error.message}`);
        }
        return { attemptedAt, ...(await this.deliverer.deliver(target.endpoint, event.body, headers)) };
    }
    onApplicationShutdown() {
        this.deliverer.close();
    }
};
WebhookSender = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        Clock])
], WebhookSender);
export { WebhookSender };
//# sourceMappingURL=webhook-sender.js.map