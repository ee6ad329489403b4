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
import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { PlatformConfig, PlatformConfigUpdateRequest } from './platform-config.dto.js';
import { PlatformConfigService } from './platform-config.service.js';
let PlatformConfigController = class PlatformConfigController {
    config;
    constructor(config) {
        this.config = config;
    }
    get(p) {
        return this.config.get(p.platformId, p.permissions.includes('MANAGE'));
    }
    update(p, body) {
        return this.config.update(p.platformId, body);
    }
    /** Issues a new Standard Webhooks secret; old and new both sign every delivery for 24 hours. */
    rotateWebhookSecret(p) {
        return this.config.rotateWebhookSecret(p.platformId);
    }
};
__decorate([
    ApiOperation({ summary: 'Get platform configuration', operationId: 'getPlatformConfig' }),
    Get(),
    ApiOkResponse({ type: PlatformConfig }),
    __param(0, CurrentPlatform()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], PlatformConfigController.prototype, "get", null);
__decorate([
    ApiOperation({ summary: 'Update platform configuration', operationId: 'updatePlatformConfig' }),
    Patch(),
    RequirePermission('MANAGE'),
    ApiOkResponse({ type: PlatformConfig }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, PlatformConfigUpdateRequest]),
    __metadata("design:returntype", Promise)
], PlatformConfigController.prototype, "update", null);
__decorate([
    ApiOperation({ summary: 'Rotate the webhook signing secret', operationId: 'rotateWebhookSecret' }),
    Post('webhook-secret/rotate'),
    HttpCode(200),
    RequirePermission('MANAGE'),
    ApiOkResponse({ type: PlatformConfig }),
    __param(0, CurrentPlatform()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], PlatformConfigController.prototype, "rotateWebhookSecret", null);
PlatformConfigController = __decorate([
    ApiTags('Platform Configuration'),
    ApiBasicAuth('BasicAuth'),
    Controller('config'),
    __metadata("design:paramtypes", [PlatformConfigService])
], PlatformConfigController);
export { PlatformConfigController };
//# sourceMappingURL=platform-config.controller.js.map