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
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentAgent, CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import { IdPipe } from '../../common/id.pipe.js';
import { PageOf } from '../../common/pagination.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { OutgoingTransactionView } from '../../quotes/outgoing-transaction.render.js';
import { AgentQuoteRequest, QuoteView } from '../../quotes/quote.dto.js';
import { QuotesService } from '../../quotes/quotes.service.js';
import { AgentActionRejectRequest, AgentActionsQuery, AgentApprovalsQuery, AgentTransactionsQuery, } from './agent-action.dto.js';
import { AgentRoute } from '../agent-route.js';
import { AgentActionView } from './agent-action.render.js';
import { AgentActionsService } from './agent-actions.service.js';
const ActionPage = PageOf(AgentActionView, 'AgentActionListResponse');
const TransactionPage = PageOf(OutgoingTransactionView, 'TransactionListResponse');
/** Agent Operations called with the agent's own Bearer token: quotes, execution, actions, transactions. */
let AgentOperationsController = class AgentOperationsController {
    quotes;
    actions;
    constructor(quotes, actions) {
        this.quotes = quotes;
        this.actions = actions;
    }
    createQuote(agent, body) {
        return this.quotes.create(agent, body);
    }
    getQuote(agent, quoteId) {
        return this.quotes.get(agent, quoteId);
    }
    execute(agent, quoteId) {
        return this.actions.execute(agent, quoteId);
    }
    listActions(agent, query) {
        return this.actions.listOwn(agent, query);
    }
    getAction(agent, actionId) {
        return this.actions.getOwn(agent, actionId);
    }
    listTransactions(agent, query) {
        return this.actions.listTransactions(agent, query);
    }
    getTransaction(agent, transactionId) {
        return this.actions.getTransaction(agent, transactionId);
    }
};
__decorate([
    Post('quotes'),
    AgentRoute({ permission: 'CREATE_QUOTES', initiates: true }),
    Idempotent(),
    ApiOperation({ summary: 'Create a transfer quote', operationId: 'agentCreateQuote' }),
    ApiCreatedResponse({ type: QuoteView }),
    ApiResponse({ status: 400, description: 'INVALID_INPUT, QUOTE_RATE_UNAVAILABLE' }),
    ApiResponse({ status: 403, description: 'Paused, no CREATE_QUOTES, or an account outside allowedAccountIds' }),
    ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' }),
    __param(0, CurrentAgent()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, AgentQuoteRequest]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "createQuote", null);
__decorate([
    Get('quotes/:quoteId'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: 'Get agent quote by ID', operationId: 'agentGetQuote' }),
    ApiOkResponse({ type: QuoteView }),
    ApiResponse({ status: 404, description: 'QUOTE_NOT_FOUND' }),
    __param(0, CurrentAgent()),
    __param(1, Param('quoteId', new IdPipe('Quote'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "getQuote", null);
__decorate([
    Post('quotes/:quoteId/execute'),
    HttpCode(200),
    AgentRoute({ permission: 'EXECUTE_QUOTES', initiates: true }),
    Idempotent(),
    ApiOperation({ summary: 'Execute a quote', operationId: 'agentExecuteQuote' }),
    ApiOkResponse({ type: AgentActionView, description: 'APPROVED with its transaction, or PENDING_APPROVAL' }),
    ApiResponse({ status: 400, description: 'QUOTE_EXPIRED, INSUFFICIENT_FUNDS' }),
    ApiResponse({
        status: 403,
        description: 'Paused, no EXECUTE_QUOTES, or a spending limit (details: limit, value, amount)',
    }),
    ApiResponse({ status: 404, description: 'QUOTE_NOT_FOUND' }),
    ApiResponse({ status: 409, description: 'CONFLICT: already executed' }),
    __param(0, CurrentAgent()),
    __param(1, Param('quoteId', new IdPipe('Quote'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "execute", null);
__decorate([
    Get('actions'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: "List agent's own actions", operationId: 'agentListActions' }),
    ApiOkResponse({ type: ActionPage }),
    __param(0, CurrentAgent()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, AgentActionsQuery]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "listActions", null);
__decorate([
    Get('actions/:actionId'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: 'Get an agent action', operationId: 'agentGetAction' }),
    ApiOkResponse({ type: AgentActionView }),
    ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' }),
    __param(0, CurrentAgent()),
    __param(1, Param('actionId', new IdPipe('AgentAction'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "getAction", null);
__decorate([
    Get('transactions'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: 'List agent transactions', operationId: 'agentListTransactions' }),
    ApiOkResponse({ type: TransactionPage }),
    __param(0, CurrentAgent()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, AgentTransactionsQuery]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "listTransactions", null);
__decorate([
    Get('transactions/:transactionId'),
    AgentRoute({ permission: 'VIEW_TRANSACTIONS' }),
    ApiOperation({ summary: 'Get agent transaction by ID', operationId: 'agentGetTransaction' }),
    ApiOkResponse({ type: OutgoingTransactionView }),
    ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' }),
    __param(0, CurrentAgent()),
    __param(1, Param('transactionId', new IdPipe('Transaction'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], AgentOperationsController.prototype, "getTransaction", null);
AgentOperationsController = __decorate([
    ApiTags('Agent Operations'),
    Controller('agents/me'),
    __metadata("design:paramtypes", [QuotesService,
        AgentActionsService])
], AgentOperationsController);
export { AgentOperationsController };
/** Agent Management by the platform (HTTP Basic): pending actions, approve, reject. */
let AgentApprovalsController = class AgentApprovalsController {
    actions;
    constructor(actions) {
        this.actions = actions;
    }
    list(p, query) {
        return this.actions.listPending(p.platformId, query);
    }
    approve(p, agentId, actionId) {
        return this.actions.approve(p.platformId, agentId, actionId);
    }
    reject(p, agentId, actionId, body) {
        return this.actions.reject(p.platformId, agentId, actionId, body.reason);
    }
};
__decorate([
    Get('approvals'),
    ApiOperation({ summary: 'List agent transaction approval requests', operationId: 'listAgentApprovals' }),
    ApiOkResponse({ type: ActionPage }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, AgentApprovalsQuery]),
    __metadata("design:returntype", Promise)
], AgentApprovalsController.prototype, "list", null);
__decorate([
    Post(':agentId/actions/:actionId/approve'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Approve an agent action', operationId: 'approveAgentAction' }),
    ApiOkResponse({
        type: AgentActionView,
        description: 'APPROVED with its transaction, or FAILED (transaction.failureReason)',
    }),
    ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' }),
    ApiResponse({ status: 409, description: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', new IdPipe('Agent'))),
    __param(2, Param('actionId', new IdPipe('AgentAction'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, String]),
    __metadata("design:returntype", Promise)
], AgentApprovalsController.prototype, "approve", null);
__decorate([
    Post(':agentId/actions/:actionId/reject'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Reject an agent action', operationId: 'rejectAgentAction' }),
    ApiOkResponse({ type: AgentActionView }),
    ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' }),
    ApiResponse({ status: 409, description: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('agentId', new IdPipe('Agent'))),
    __param(2, Param('actionId', new IdPipe('AgentAction'))),
    __param(3, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, String, AgentActionRejectRequest]),
    __metadata("design:returntype", Promise)
], AgentApprovalsController.prototype, "reject", null);
AgentApprovalsController = __decorate([
    ApiTags('Agent Management'),
    ApiBasicAuth('BasicAuth'),
    ApiResponse({ status: 401, description: 'UNAUTHORIZED' }),
    Controller('agents'),
    __metadata("design:paramtypes", [AgentActionsService])
], AgentApprovalsController);
export { AgentApprovalsController };
//# sourceMappingURL=agent-actions.controller.js.map