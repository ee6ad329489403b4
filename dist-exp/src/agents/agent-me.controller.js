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
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, } from '@nestjs/swagger';
import { CurrentAgent } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { formatId, parseId } from '../common/ids.js';
import { isRecord } from '../common/objects.js';
import { PageOf } from '../common/pagination.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { InternalAccountsService } from '../customers/internal-accounts.service.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { CustomerExternalAccountCreateRequest, ExternalAccount, ListPlatformExternalAccountsQuery, } from '../external-accounts/external-account.dto.js';
import { ExternalAccountsService } from '../external-accounts/external-accounts.service.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { AgentRoute } from './agent-route.js';
import { Agent, AgentInternalAccountsQuery } from './agent.dto.js';
import { AgentsService } from './agents.service.js';
/**
 * The agent's own routes (AgentAuth: its Bearer access token), always scoped to its customer:
 * another customer's or platform's resource is not found. Reads stay open to a paused agent;
 * external-account changes initiate, so a paused agent gets 403 FORBIDDEN.
 */
let AgentMeController = class AgentMeController {
    agents;
    internalAccounts;
    externalAccounts;
    constructor(agents, internalAccounts, externalAccounts) {
        this.agents = agents;
        this.internalAccounts = internalAccounts;
        this.externalAccounts = externalAccounts;
    }
    me(agent) {
        return this.agents.me(agent);
    }
    internalAccountsList(agent, query) {
        return this.internalAccounts.listForCustomers(agent.platformId, {
            ...query,
            customerId: formatId('Customer', agent.customerId),
        });
    }
    externalAccountsList(agent, query) {
        return this.externalAccounts.list(agent.platformId, { kind: 'customer', customerId: agent.customerId }, query);
    }
    /** The customer's external-account create, unchanged; `customerId` may be omitted (it is the agent's customer). */
    createExternalAccount(agent, body) {
        const own = formatId('Customer', agent.customerId);
        if (isRecord(body) && body.customerId !== undefined) {
            const given = typeof body.customerId === 'string' ? parseId('Customer', body.customerId) : null;
            if (given !== agent.customerId)
                throw invalidInput([
                    fieldError('customerId', `customerId must be the agent's own customer (${own}) or omitted`),
                ]);
        }
        return this.externalAccounts.createForCustomer(agent.platformId, isRecord(body) ? { ...body, customerId: own } : body);
    }
    externalAccount(agent, id) {
        return this.externalAccounts.get(agent.platformId, { kind: 'customer', customerId: agent.customerId }, id);
    }
    async deleteExternalAccount(agent, id) {
        await this.externalAccounts.delete(agent.platformId, { kind: 'customer', customerId: agent.customerId }, id);
    }
};
__decorate([
    Get(),
    AgentRoute(),
    ApiOperation({ summary: 'Get current agent', operationId: 'getAgentMe' }),
    ApiOkResponse({ type: Agent }),
    __param(0, CurrentAgent()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "me", null);
__decorate([
    Get('internal-accounts'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: "List agent's internal accounts", operationId: 'agentListInternalAccounts' }),
    ApiOkResponse({ type: PageOf(InternalAccount, 'InternalAccountListResponse') }),
    __param(0, CurrentAgent()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, AgentInternalAccountsQuery]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "internalAccountsList", null);
__decorate([
    Get('external-accounts'),
    AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS' }),
    ApiOperation({ summary: 'List agent external accounts', operationId: 'agentListExternalAccounts' }),
    ApiOkResponse({ type: PageOf(ExternalAccount, 'ExternalAccountListResponse') }),
    __param(0, CurrentAgent()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListPlatformExternalAccountsQuery]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "externalAccountsList", null);
__decorate([
    Post('external-accounts'),
    AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS', initiates: true }),
    Idempotent(),
    ApiOperation({ summary: 'Add an external account', operationId: 'agentCreateExternalAccount' }),
    ApiBody({ type: CustomerExternalAccountCreateRequest }),
    ApiCreatedResponse({ type: ExternalAccount }),
    __param(0, CurrentAgent()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "createExternalAccount", null);
__decorate([
    Get('external-accounts/:externalAccountId'),
    AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS' }),
    ApiOperation({ summary: 'Get agent external account by ID', operationId: 'agentGetExternalAccount' }),
    ApiOkResponse({ type: ExternalAccount }),
    ApiNotFoundResponse({ description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" }),
    __param(0, CurrentAgent()),
    __param(1, Param('externalAccountId', new IdPipe('ExternalAccount'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "externalAccount", null);
__decorate([
    Delete('external-accounts/:externalAccountId'),
    HttpCode(204),
    AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS', initiates: true }),
    ApiOperation({ summary: 'Delete agent external account', operationId: 'agentDeleteExternalAccount' }),
    ApiNoContentResponse({ description: 'Deleted' }),
    ApiNotFoundResponse({ description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" }),
    __param(0, CurrentAgent()),
    __param(1, Param('externalAccountId', new IdPipe('ExternalAccount'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentMeController.prototype, "deleteExternalAccount", null);
AgentMeController = __decorate([
    ApiTags('Agent Operations'),
    Controller('agents/me'),
    __metadata("design:paramtypes", [AgentsService,
        InternalAccountsService,
        ExternalAccountsService])
], AgentMeController);
export { AgentMeController };
//# sourceMappingURL=agent-me.controller.js.map