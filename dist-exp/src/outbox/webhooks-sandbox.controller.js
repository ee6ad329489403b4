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
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { TestWebhookResponse } from './webhook-events.dto.js';
import { WebhookEventsService } from './webhook-events.service.js';
/** The outbox area's sandbox route; mounted only when SANDBOX=true. */
let WebhooksSandboxController = class WebhooksSandboxController {
    events;
    constructor(events) {
        this.events = events;
    }
    /** Sends a TEST webhook to the configured endpoint now (reference: sendTestWebhook). */
    sendTest(p) {
        return this.events.sendTest(p.platformId);
    }
    /** The older SDK's path: an alias of POST /sandbox/webhooks/test (same rules, sandbox only). */
    sendTestLegacy(p) {
        return this.events.sendTest(p.platformId);
    }
};
__decorate([
    Post('sandbox/webhooks/test'),
    HttpCode(200),
    RequirePermission('MANAGE'),
    ApiOperation({ summary: 'Send a test webhook', operationId: 'sendTestWebhook' }),
    ApiErrors(400),
    ApiOkResponse({ type: TestWebhookResponse }),
    __param(0, CurrentPlatform()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], WebhooksSandboxController.prototype, "sendTest", null);
__decorate([
    Post('webhooks/test'),
    HttpCode(200),
    RequirePermission('MANAGE'),
    ApiOperation({
        summary: 'Send a test webhook (alias of POST /sandbox/webhooks/test)',
        operationId: 'sendTestWebhookLegacy',
        deprecated: true,
    }),
    ApiErrors(400),
    ApiOkResponse({ type: TestWebhookResponse }),
    __param(0, CurrentPlatform()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], WebhooksSandboxController.prototype, "sendTestLegacy", null);
WebhooksSandboxController = __decorate([
    ApiTags('Sandbox'),
    ApiBasicAuth('BasicAuth'),
    Controller(),
    __metadata("design:paramtypes", [WebhookEventsService])
], WebhooksSandboxController);
export { WebhooksSandboxController };
//# sourceMappingURL=webhooks-sandbox.controller.js.map