var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ListWebhookEventsQuery, WebhookEvent } from './webhook-events.dto.js';
import { WebhookEventsService } from './webhook-events.service.js';
/** Operator endpoints over the outbox (beyond the reference). */
let WebhookEventsController = class WebhookEventsController {
    events;
    constructor(events) {
        this.events = events;
    }
    list(p, query) {
        return this.events.list(p.platformId, query);
    }
    get(p, eventId) {
        return this.events.get(p.platformId, eventId);
    }
    redeliver(p, eventId) {
        return this.events.redeliver(p.platformId, eventId);
    }
};
__decorate([
    ApiOperation({ summary: 'List webhook events', operationId: 'listWebhookEvents' }),
    Get(),
    ApiOkResponse({ type: PageOf(WebhookEvent, 'WebhookEventListResponse') }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListWebhookEventsQuery]),
    __metadata("design:returntype", void 0)
], WebhookEventsController.prototype, "list", null);
__decorate([
    ApiOperation({ summary: 'Get a webhook event by ID', operationId: 'getWebhookEventById' }),
    Get(':eventId'),
    ApiOkResponse({ type: WebhookEvent }),
    __param(0, CurrentPlatform()),
    __param(1, Param('eventId', new IdPipe('Webhook'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], WebhookEventsController.prototype, "get", null);
__decorate([
    ApiOperation({ summary: 'Redeliver a webhook event', operationId: 'redeliverWebhookEvent' }),
    Post(':eventId/redeliver'),
    HttpCode(200),
    RequirePermission('MANAGE'),
    Idempotent(),
    ApiOkResponse({ type: WebhookEvent }),
    __param(0, CurrentPlatform()),
    __param(1, Param('eventId', new IdPipe('Webhook'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], WebhookEventsController.prototype, "redeliver", null);
WebhookEventsController = __decorate([
    ApiTags('Webhooks'),
    ApiBasicAuth('BasicAuth'),
    Controller('webhook-events'),
    __metadata("design:paramtypes", [WebhookEventsService])
], WebhookEventsController);
export { WebhookEventsController };
//# sourceMappingURL=webhook-events.controller.js.map