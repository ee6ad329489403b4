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
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, } from '@nestjs/swagger';
import { CurrentPlatform, Public, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { AgentPolicyUpdateRequest } from './agent-policy.js';
import { Agent, AgentCreateRequest, AgentCreateResponse, AgentDeviceCode, AgentDeviceCodeRedeemResponse, AgentDeviceCodeStatusResponse, AgentUpdateRequest, ListAgentsQuery, } from './agent.dto.js';
import { AgentsService } from './agents.service.js';
const AgentIdPipe = new IdPipe('Agent');
const notFound = ApiNotFoundResponse({ description: 'NOT_FOUND: no such agent on this platform' });
/**
 * Agent management, called by the platform backend (HTTP Basic): reads need VIEW, everything else
 * TRANSACT. Bodies are typed `unknown`: the service validates them (every FieldError in one 400).
 */
let AgentsController = class AgentsController {
    agents;
    constructor(agents) {
        this.agents = agents;
    }
    create(p, body) {
        return this.agents.create(p.platformId, body);
    }
    list(p, query) {
        return this.agents.list(p.platformId, query);
    }
    deviceCodeStatus(p, code) {
        return this.agents.deviceCodeStatus(p.platformId, code);
    }
    get(p, agentId) {
        return this.agents.get(p.platformId, agentId);
    }
    update(p, agentId, body) {
        return this.agents.update(p.platformId, agentId, body);
    }
    async remove(p, agentId) {
        await this.agents.remove(p.platformId, agentId);
    }
    updatePolicy(p, agentId, body) {
        return this.agents.updatePolicy(p.platformId, agentId, body);
    }
    regenerateDeviceCode(p, agentId) {
        return this.agents.regenerateDeviceCode(p.platformId, agentId);
    }
};
__decorate([
    Post(),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({ summary: 'Create an agent', operationId: 'createAgent' }),
    ApiBody({ type: AgentCreateRequest }),
    ApiCreatedResponse({ type: AgentCreateResponse }),
    ApiNotFoundResponse({ description: 'CUSTOMER_NOT_FOUND' }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "create", null);
__decorate([
    Get(),
    ApiOperation({ summary: 'List agents', operationId: 'listAgents' }),
    ApiOkResponse({ type: PageOf(Agent, 'AgentListResponse') }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListAgentsQuery]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "list", null);
__decorate([
    Get('device-codes/:code/status'),
    ApiOperation({ summary: 'Get device code status', operationId: 'getAgentDeviceCodeStatus' }),
    ApiOkResponse({ type: AgentDeviceCodeStatusResponse }),
    ApiNotFoundResponse({ description: 'NOT_FOUND: no such device code on this platform' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('code')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "deviceCodeStatus", null);
__decorate([
    Get(':agentId'),
    ApiOperation({ summary: 'Get agent by ID', operationId: 'getAgentById' }),
    ApiOkResponse({ type: Agent }),
    notFound,
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', AgentIdPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "get", null);
__decorate([
    Patch(':agentId'),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Update agent', operationId: 'updateAgent' }),
    ApiBody({ type: AgentUpdateRequest }),
    ApiOkResponse({ type: Agent }),
    notFound,
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', AgentIdPipe)),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, Object]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "update", null);
__decorate([
    Delete(':agentId'),
    HttpCode(204),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Delete agent', operationId: 'deleteAgent' }),
    ApiNoContentResponse({ description: 'Deleted; its access token stops working at once' }),
    notFound,
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', AgentIdPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "remove", null);
__decorate([
    Patch(':agentId/policy'),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Update agent policy', operationId: 'updateAgentPolicy' }),
    ApiBody({ type: AgentPolicyUpdateRequest }),
    ApiOkResponse({ type: Agent }),
    notFound,
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', AgentIdPipe)),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, Object]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "updatePolicy", null);
__decorate([
    Post(':agentId/device-codes'),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({ summary: 'Regenerate a device code', operationId: 'regenerateAgentDeviceCode' }),
    ApiCreatedResponse({ type: AgentDeviceCode }),
    ApiConflictResponse({ description: 'CONFLICT: the agent is connected (its device code was redeemed)' }),
    notFound,
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', AgentIdPipe)),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentsController.prototype, "regenerateDeviceCode", null);
AgentsController = __decorate([
    ApiTags('Agent Management'),
    ApiBasicAuth('BasicAuth'),
    Controller('agents'),
    __metadata("design:paramtypes", [AgentsService])
], AgentsController);
export { AgentsController };
/**
 * Installation: called by the agent software with no credentials (reference: `security: []`), so
 * it lives apart from the Basic-auth controller.
 */
let AgentInstallController = class AgentInstallController {
    agents;
    constructor(agents) {
        this.agents = agents;
    }
    /** Public: the device code itself is the proof of authorization (reference: `security: []`). */
    redeem(code) {
        return this.agents.redeem(code);
    }
};
__decorate([
    Post('device-codes/:code/redeem'),
    Public(),
    HttpCode(200),
    ApiOperation({ summary: 'Redeem device code', operationId: 'redeemAgentDeviceCode' }),
    ApiOkResponse({ type: AgentDeviceCodeRedeemResponse }),
    ApiNotFoundResponse({ description: 'NOT_FOUND: unknown device code' }),
    __param(0, Param('code')),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], AgentInstallController.prototype, "redeem", null);
AgentInstallController = __decorate([
    ApiTags('Agent Management'),
    Controller('agents'),
    __metadata("design:paramtypes", [AgentsService])
], AgentInstallController);
export { AgentInstallController };
//# sourceMappingURL=agents.controller.js.map