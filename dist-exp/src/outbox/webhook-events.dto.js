var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty } from '@nestjs/swagger';
import { CreatedRangeQuery } from '../common/time-range.js';
import { EnumField } from '../common/validation.js';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_TYPES } from './webhook-types.js';
export class ListWebhookEventsQuery extends CreatedRangeQuery {
    type;
    status;
}
__decorate([
    EnumField(WEBHOOK_TYPES, { required: false, description: 'Filter by webhook type' }),
    __metadata("design:type", String)
], ListWebhookEventsQuery.prototype, "type", void 0);
__decorate([
    EnumField(WEBHOOK_EVENT_STATUSES, { required: false, description: 'Filter by delivery status' }),
    __metadata("design:type", String)
], ListWebhookEventsQuery.prototype, "status", void 0);
export class WebhookAttempt {
    attemptedAt;
    durationMs;
    responseStatus;
    responseBody;
    error;
}
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], WebhookAttempt.prototype, "attemptedAt", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], WebhookAttempt.prototype, "durationMs", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number, description: 'HTTP status; null when no response came' }),
    __metadata("design:type", Object)
], WebhookAttempt.prototype, "responseStatus", void 0);
__decorate([
    ApiProperty({ nullable: true, type: String, description: 'First 1 KiB of the response body' }),
    __metadata("design:type", Object)
], WebhookAttempt.prototype, "responseBody", void 0);
__decorate([
    ApiProperty({ nullable: true, type: String, description: 'e.g. timeout, ECONNREFUSED, blocked: private address' }),
    __metadata("design:type", Object)
], WebhookAttempt.prototype, "error", void 0);
export class WebhookEvent {
    id;
    type;
    status;
    aggregateId;
    createdAt;
    deliveredAt;
    nextAttemptAt;
    payload;
    attempts;
}
__decorate([
    ApiProperty({ example: 'Webhook:019542f5-b3e7-1d02-0000-000000000007', description: 'The envelope id' }),
    __metadata("design:type", String)
], WebhookEvent.prototype, "id", void 0);
__decorate([
    ApiProperty({ enum: WEBHOOK_TYPES }),
    __metadata("design:type", String)
], WebhookEvent.prototype, "type", void 0);
__decorate([
    ApiProperty({ enum: WEBHOOK_EVENT_STATUSES }),
    __metadata("design:type", String)
], WebhookEvent.prototype, "status", void 0);
__decorate([
    ApiProperty({ example: 'Card:019542f5-b3e7-1d02-0000-000000000010' }),
    __metadata("design:type", String)
], WebhookEvent.prototype, "aggregateId", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], WebhookEvent.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time', nullable: true, type: String }),
    __metadata("design:type", Object)
], WebhookEvent.prototype, "deliveredAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Set while PENDING' }),
    __metadata("design:type", Object)
], WebhookEvent.prototype, "nextAttemptAt", void 0);
__decorate([
    ApiProperty({
        type: 'object',
        additionalProperties: true,
        description: 'The envelope sent: {id, type, timestamp, data}',
    }),
    __metadata("design:type", Object)
], WebhookEvent.prototype, "payload", void 0);
__decorate([
    ApiProperty({ type: [WebhookAttempt] }),
    __metadata("design:type", Array)
], WebhookEvent.prototype, "attempts", void 0);
/** The reference's TestWebhookResponse. */
export class TestWebhookResponse {
    url;
    response_status;
    response_body;
}
__decorate([
    ApiProperty({ format: 'uri' }),
    __metadata("design:type", String)
], TestWebhookResponse.prototype, "url", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], TestWebhookResponse.prototype, "response_status", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], TestWebhookResponse.prototype, "response_body", void 0);
//# sourceMappingURL=webhook-events.dto.js.map