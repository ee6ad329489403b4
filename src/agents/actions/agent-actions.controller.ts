import type { IncomingHttpHeaders } from 'node:http';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { retryHeaders } from '../../embedded-wallets/wallet-signatures.service.js';
import {
  ApiBasicAuth,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentAgent, CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { AgentPrincipal, PlatformPrincipal } from '../../auth/auth.decorators.js';
import { IdPipe } from '../../common/id.pipe.js';
import { PageOf } from '../../common/pagination.js';
import type { Page } from '../../common/pagination.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { OutgoingTransactionView } from '../../payments/transactions/transaction.render.js';
import type { TransactionView } from '../../payments/transactions/transaction.render.js';
import { AgentQuoteRequest, QuoteView } from '../../payments/quotes/quote.dto.js';
import { QuotesService } from '../../payments/quotes/quotes.service.js';
import { TransferInRequest, TransferOutRequest } from '../../payments/transfers/transfers.dto.js';
import {
  AgentActionRejectRequest,
  AgentActionsQuery,
  AgentApprovalsQuery,
  AgentTransactionsQuery,
} from './agent-action.dto.js';
import { AgentRoute } from '../agent-route.js';
import { AgentActionView } from './agent-action.render.js';
import { AgentActionsService, agentScope } from './agent-actions.service.js';
import { AgentPolicyCheck } from './agent-policy-check.js';
import { payRequestConflict } from '../../payments/quotes/uma-destination.js';

const ActionPage = PageOf(AgentActionView, 'AgentActionListResponse');
const TransactionPage = PageOf(OutgoingTransactionView, 'AgentTransactionListResponse');

/** Agent Operations called with the agent's own Bearer token: quotes, execution, actions, transactions. */
@ApiTags('Agent Operations')
@Controller('agents/me')
export class AgentOperationsController {
  constructor(
    private readonly quotes: QuotesService,
    private readonly actions: AgentActionsService,
    private readonly policy: AgentPolicyCheck,
  ) {}

  @Post('quotes')
  @AgentRoute({ permission: 'CREATE_QUOTES', initiates: true })
  @Idempotent({ conflictCode: payRequestConflict })
  @ApiOperation({ summary: 'Create a transfer quote', operationId: 'agentCreateQuote' })
  @ApiCreatedResponse({ type: QuoteView })
  @ApiResponse({ status: 400, description: 'INVALID_INPUT, QUOTE_RATE_UNAVAILABLE' })
  @ApiResponse({ status: 403, description: 'Paused, no CREATE_QUOTES, or an account outside allowedAccountIds' })
  @ApiResponse({ status: 404, description: 'ACCOUNT_NOT_FOUND' })
  createQuote(@CurrentAgent() agent: AgentPrincipal, @Body() body: AgentQuoteRequest): Promise<QuoteView> {
    return this.quotes.create(agentScope(agent), body, this.policy.accountsAllowed(agent));
  }

  @Get('quotes/:quoteId')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: 'Get agent quote by ID', operationId: 'agentGetQuote' })
  @ApiOkResponse({ type: QuoteView })
  @ApiResponse({ status: 404, description: 'QUOTE_NOT_FOUND' })
  getQuote(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
  ): Promise<QuoteView> {
    return this.quotes.get(agentScope(agent), quoteId);
  }

  @Post('transfer-in')
  @AgentRoute({ permission: 'CREATE_TRANSFERS', initiates: true })
  @Idempotent()
  @ApiOperation({ summary: 'Create a transfer-in', operationId: 'agentCreateTransferIn' })
  @ApiCreatedResponse({
    type: AgentActionView,
    description: "APPROVED with its transaction, or PENDING_APPROVAL when the agent's policy requires approval",
  })
  @ApiResponse({ status: 400, description: 'INVALID_INPUT, INVALID_CURRENCY, EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED' })
  @ApiResponse({
    status: 403,
    description: 'Paused, no CREATE_TRANSFERS, an account outside allowedAccountIds, or a spending limit',
  })
  @ApiResponse({ status: 404, description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" })
  transferIn(@CurrentAgent() agent: AgentPrincipal, @Body() body: TransferInRequest): Promise<AgentActionView> {
    return this.actions.transferIn(agent, body);
  }

  @Post('transfer-out')
  @AgentRoute({ permission: 'CREATE_TRANSFERS', initiates: true })
  @Idempotent()
  @ApiOperation({ summary: 'Create a transfer-out', operationId: 'agentCreateTransferOut' })
  @ApiCreatedResponse({
    type: AgentActionView,
    description: "APPROVED with its transaction, or PENDING_APPROVAL when the agent's policy requires approval",
  })
  @ApiResponse({ status: 400, description: 'INVALID_INPUT, INVALID_CURRENCY, INSUFFICIENT_FUNDS' })
  @ApiResponse({
    status: 403,
    description: 'Paused, no CREATE_TRANSFERS, an account outside allowedAccountIds, or a spending limit',
  })
  @ApiResponse({ status: 404, description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" })
  transferOut(@CurrentAgent() agent: AgentPrincipal, @Body() body: TransferOutRequest): Promise<AgentActionView> {
    return this.actions.transferOut(agent, body);
  }

  @Post('quotes/:quoteId/execute')
  @HttpCode(200)
  @AgentRoute({ permission: 'EXECUTE_QUOTES', initiates: true })
  @Idempotent()
  @ApiOperation({ summary: 'Execute a quote', operationId: 'agentExecuteQuote' })
  @ApiOkResponse({ type: AgentActionView, description: 'APPROVED with its transaction, or PENDING_APPROVAL' })
  @ApiResponse({ status: 400, description: 'QUOTE_EXPIRED, INSUFFICIENT_FUNDS' })
  @ApiResponse({
    status: 403,
    description: 'Paused, no EXECUTE_QUOTES, or a spending limit (details: limit, value, amount)',
  })
  @ApiResponse({ status: 404, description: 'QUOTE_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'CONFLICT: already executed' })
  @ApiResponse({
    status: 401,
    description: 'An EMBEDDED_WALLET source: Grid-Wallet-Signature missing, malformed or not over its payloadToSign',
  })
  @ApiHeader({
    name: 'Grid-Wallet-Signature',
    required: false,
    description:
      "An EMBEDDED_WALLET source: the wallet holder's stamp over the quote's payloadToSign (also Service-Wallet-Signature)",
  })
  execute(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
    @Headers() headers: IncomingHttpHeaders,
  ): Promise<AgentActionView> {
    return this.actions.execute(agent, quoteId, retryHeaders(headers));
  }

  @Get('actions')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: "List agent's own actions", operationId: 'agentListActions' })
  @ApiOkResponse({ type: ActionPage })
  listActions(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AgentActionsQuery,
  ): Promise<Page<AgentActionView>> {
    return this.actions.listOwn(agent, query);
  }

  @Get('actions/:actionId')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: 'Get an agent action', operationId: 'agentGetAction' })
  @ApiOkResponse({ type: AgentActionView })
  @ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' })
  getAction(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('actionId', new IdPipe('AgentAction')) actionId: string,
  ): Promise<AgentActionView> {
    return this.actions.getOwn(agent, actionId);
  }

  @Get('transactions')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: 'List agent transactions', operationId: 'agentListTransactions' })
  @ApiOkResponse({ type: TransactionPage })
  listTransactions(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AgentTransactionsQuery,
  ): Promise<Page<TransactionView>> {
    return this.actions.listTransactions(agent, query);
  }

  @Get('transactions/:transactionId')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: 'Get agent transaction by ID', operationId: 'agentGetTransaction' })
  @ApiOkResponse({ type: OutgoingTransactionView })
  @ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' })
  getTransaction(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
  ): Promise<TransactionView> {
    return this.actions.getTransaction(agent, transactionId);
  }
}

/** Agent Management by the platform (HTTP Basic): pending actions, approve, reject. */
@ApiTags('Agent Management')
@ApiBasicAuth('BasicAuth')
@ApiResponse({ status: 401, description: 'UNAUTHORIZED' })
@Controller('agents')
export class AgentApprovalsController {
  constructor(private readonly actions: AgentActionsService) {}

  @Get('approvals')
  @ApiOperation({ summary: 'List agent transaction approval requests', operationId: 'listAgentApprovals' })
  @ApiOkResponse({ type: ActionPage })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: AgentApprovalsQuery): Promise<Page<AgentActionView>> {
    return this.actions.listPending(p.platformId, query);
  }

  @Post(':agentId/actions/:actionId/approve')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Approve an agent action', operationId: 'approveAgentAction' })
  @ApiOkResponse({
    type: AgentActionView,
    description: 'APPROVED with its transaction, or FAILED (transaction.failureReason)',
  })
  @ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' })
  approve(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('agentId', new IdPipe('Agent')) agentId: string,
    @Param('actionId', new IdPipe('AgentAction')) actionId: string,
  ): Promise<AgentActionView> {
    return this.actions.approve(p.platformId, agentId, actionId);
  }

  @Post(':agentId/actions/:actionId/reject')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Reject an agent action', operationId: 'rejectAgentAction' })
  @ApiOkResponse({ type: AgentActionView })
  @ApiResponse({ status: 404, description: 'TRANSACTION_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' })
  reject(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('agentId', new IdPipe('Agent')) agentId: string,
    @Param('actionId', new IdPipe('AgentAction')) actionId: string,
    @Body() body: AgentActionRejectRequest,
  ): Promise<AgentActionView> {
    return this.actions.reject(p.platformId, agentId, actionId, body.reason);
  }
}
