var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
/** One event to deliver as a webhook. Written in the producer's transaction (OutboxService.write). */
let OutboxEventEntity = class OutboxEventEntity {
    /** The uuid of the envelope id `Webhook:<uuid>`: the same on every attempt and redelivery. */
    id;
    platformId;
    type;
    /** The aggregate's resource type (`Card` for `Card:<uuid>`): Debezium's outbox router routes on it. */
    aggregateType;
    /** The resource the event is about (e.g. `Card:<uuid>`); events of one aggregate go out in `seq` order. */
    aggregateId;
    seq;
    /** The exact JSON envelope sent (and signed), byte for byte. */
    body;
    status;
    attemptCount;
    nextAttemptAt;
    /** The 7-day give-up window runs from here: creation, or the last redelivery request. */
    retryingSince;
    /** Lease of the worker delivering it; a worker that dies loses it when it expires. */
    lockedUntil;
    /** Fences a worker whose lease expired: its late outcome no longer matches and is not applied. */
    lockToken;
    createdAt;
    deliveredAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "platformId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "type", void 0);
__decorate([
    Column({ type: 'text', name: 'aggregate_type', insert: false, update: false }),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "aggregateType", void 0);
__decorate([
    Column('text', { name: 'aggregate_id' }),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "aggregateId", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "seq", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "body", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], OutboxEventEntity.prototype, "status", void 0);
__decorate([
    Column('int', { name: 'attempt_count' }),
    __metadata("design:type", Number)
], OutboxEventEntity.prototype, "attemptCount", void 0);
__decorate([
    Column('timestamptz', { name: 'next_attempt_at' }),
    __metadata("design:type", Date)
], OutboxEventEntity.prototype, "nextAttemptAt", void 0);
__decorate([
    Column('timestamptz', { name: 'retrying_since' }),
    __metadata("design:type", Date)
], OutboxEventEntity.prototype, "retryingSince", void 0);
__decorate([
    Column('timestamptz', { name: 'locked_until', nullable: true }),
    __metadata("design:type", Object)
], OutboxEventEntity.prototype, "lockedUntil", void 0);
__decorate([
    Column('uuid', { name: 'lock_token', nullable: true }),
    __metadata("design:type", Object)
], OutboxEventEntity.prototype, "lockToken", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], OutboxEventEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'delivered_at', nullable: true }),
    __metadata("design:type", Object)
], OutboxEventEntity.prototype, "deliveredAt", void 0);
OutboxEventEntity = __decorate([
    Entity('outbox_events')
], OutboxEventEntity);
export { OutboxEventEntity };
/** Every delivery attempt, successful or not. */
let OutboxAttemptEntity = class OutboxAttemptEntity {
    id;
    eventId;
    attemptedAt;
    durationMs;
    responseStatus;
    /** First 1 KiB of the response body. */
    responseBody;
    error;
};
__decorate([
    PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' }),
    __metadata("design:type", String)
], OutboxAttemptEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'event_id' }),
    __metadata("design:type", String)
], OutboxAttemptEntity.prototype, "eventId", void 0);
__decorate([
    Column('timestamptz', { name: 'attempted_at' }),
    __metadata("design:type", Date)
], OutboxAttemptEntity.prototype, "attemptedAt", void 0);
__decorate([
    Column('int', { name: 'duration_ms' }),
    __metadata("design:type", Number)
], OutboxAttemptEntity.prototype, "durationMs", void 0);
__decorate([
    Column('int', { name: 'response_status', nullable: true }),
    __metadata("design:type", Object)
], OutboxAttemptEntity.prototype, "responseStatus", void 0);
__decorate([
    Column('text', { name: 'response_body', nullable: true }),
    __metadata("design:type", Object)
], OutboxAttemptEntity.prototype, "responseBody", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], OutboxAttemptEntity.prototype, "error", void 0);
OutboxAttemptEntity = __decorate([
    Entity('outbox_attempts')
], OutboxAttemptEntity);
export { OutboxAttemptEntity };
/** Per-aggregate sequence counter: the row lock serializes writers of one aggregate. */
let OutboxAggregateEntity = class OutboxAggregateEntity {
    platformId;
    aggregateId;
    lastSeq;
};
__decorate([
    PrimaryColumn('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], OutboxAggregateEntity.prototype, "platformId", void 0);
__decorate([
    PrimaryColumn('text', { name: 'aggregate_id' }),
    __metadata("design:type", String)
], OutboxAggregateEntity.prototype, "aggregateId", void 0);
__decorate([
    Column('bigint', { name: 'last_seq' }),
    __metadata("design:type", String)
], OutboxAggregateEntity.prototype, "lastSeq", void 0);
OutboxAggregateEntity = __decorate([
    Entity('outbox_aggregates')
], OutboxAggregateEntity);
export { OutboxAggregateEntity };
//# sourceMappingURL=outbox.entities.js.map