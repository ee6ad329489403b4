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
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CurrentPlatform, RequirePermission } from './auth.decorators.js';
import { ApiToken, ApiTokenCreateRequest, ListTokensQuery } from './token.dto.js';
import { TokensService } from './tokens.service.js';
let TokensController = class TokensController {
    tokens;
    constructor(tokens) {
        this.tokens = tokens;
    }
    create(p, body) {
        return this.tokens.createForPlatform(p.platformId, body);
    }
    list(p, query) {
        return this.tokens.list(p.platformId, query);
    }
    get(p, tokenId) {
        return this.tokens.get(p.platformId, tokenId);
    }
    async revoke(p, tokenId) {
        await this.tokens.revoke(p.platformId, tokenId);
    }
};
__decorate([
    ApiOperation({ summary: 'Create a new API token', operationId: 'createToken' }),
    Post(),
    RequirePermission('MANAGE'),
    Idempotent(),
    ApiCreatedResponse({ type: ApiToken }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ApiTokenCreateRequest]),
    __metadata("design:returntype", Promise)
], TokensController.prototype, "create", null);
__decorate([
    ApiOperation({ summary: 'List tokens', operationId: 'listTokens' }),
    Get(),
    ApiOkResponse({ type: PageOf(ApiToken, 'TokenListResponse') }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListTokensQuery]),
    __metadata("design:returntype", void 0)
], TokensController.prototype, "list", null);
__decorate([
    ApiOperation({ summary: 'Get API token by ID', operationId: 'getTokenById' }),
    Get(':tokenId'),
    __param(0, CurrentPlatform()),
    __param(1, Param('tokenId', new IdPipe('Token'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], TokensController.prototype, "get", null);
__decorate([
    ApiOperation({ summary: 'Delete API token by ID', operationId: 'deleteTokenById' }),
    Delete(':tokenId'),
    HttpCode(204),
    RequirePermission('MANAGE'),
    __param(0, CurrentPlatform()),
    __param(1, Param('tokenId', new IdPipe('Token'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], TokensController.prototype, "revoke", null);
TokensController = __decorate([
    ApiTags('API Tokens'),
    ApiBasicAuth('BasicAuth'),
    Controller('tokens'),
    __metadata("design:paramtypes", [TokensService])
], TokensController);
export { TokensController };
//# sourceMappingURL=tokens.controller.js.map