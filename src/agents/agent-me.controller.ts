import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentAgent } from '../auth/auth.decorators.js';
import type { AgentPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { formatId, parseId } from '../common/ids.js';
import { isRecord } from '../common/objects.js';
import { PageOf } from '../common/pagination.js';
import type { Page } from '../common/pagination.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { InternalAccountsService } from '../customers/internal-accounts.service.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import {
  CustomerExternalAccountCreateRequest,
  ExternalAccount,
  ListPlatformExternalAccountsQuery,
} from '../external-accounts/external-account.dto.js';
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
@ApiTags('Agent Operations')
@Controller('agents/me')
export class AgentMeController {
  constructor(
    private readonly agents: AgentsService,
    private readonly internalAccounts: InternalAccountsService,
    private readonly externalAccounts: ExternalAccountsService,
  ) {}

  @Get()
  @AgentRoute()
  @ApiOperation({ summary: 'Get current agent', operationId: 'getAgentMe' })
  @ApiOkResponse({ type: Agent })
  me(@CurrentAgent() agent: AgentPrincipal): Promise<Agent> {
    return this.agents.me(agent);
  }

  @Get('internal-accounts')
  @AgentRoute({ permission: 'VIEW_TRANSACTIONS' })
  @ApiOperation({ summary: "List agent's internal accounts", operationId: 'agentListInternalAccounts' })
  @ApiOkResponse({ type: PageOf(InternalAccount, 'InternalAccountListResponse') })
  internalAccountsList(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AgentInternalAccountsQuery,
  ): Promise<Page<InternalAccount>> {
    return this.internalAccounts.listForCustomers(agent.platformId, {
      ...query,
      customerId: formatId('Customer', agent.customerId),
    });
  }

  @Get('external-accounts')
  @AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS' })
  @ApiOperation({ summary: 'List agent external accounts', operationId: 'agentListExternalAccounts' })
  @ApiOkResponse({ type: PageOf(ExternalAccount, 'ExternalAccountListResponse') })
  externalAccountsList(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: ListPlatformExternalAccountsQuery,
  ): Promise<Page<ExternalAccount>> {
    return this.externalAccounts.list(agent.platformId, { kind: 'customer', customerId: agent.customerId }, query);
  }

  /** The customer's external-account create, unchanged; `customerId` may be omitted (it is the agent's customer). */
  @Post('external-accounts')
  @AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS', initiates: true })
  @Idempotent()
  @ApiOperation({ summary: 'Add an external account', operationId: 'agentCreateExternalAccount' })
  @ApiBody({ type: CustomerExternalAccountCreateRequest })
  @ApiCreatedResponse({ type: ExternalAccount })
  createExternalAccount(@CurrentAgent() agent: AgentPrincipal, @Body() body: unknown): Promise<ExternalAccount> {
    const own = formatId('Customer', agent.customerId);
    if (isRecord(body) && body.customerId !== undefined) {
      const given = typeof body.customerId === 'string' ? parseId('Customer', body.customerId) : null;
      if (given !== agent.customerId)
        throw invalidInput([
          fieldError('customerId', `customerId must be the agent's own customer (${own}) or omitted`),
        ]);
    }
    return this.externalAccounts.createForCustomer(
      agent.platformId,
      isRecord(body) ? { ...body, customerId: own } : body,
    );
  }

  @Get('external-accounts/:externalAccountId')
  @AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS' })
  @ApiOperation({ summary: 'Get agent external account by ID', operationId: 'agentGetExternalAccount' })
  @ApiOkResponse({ type: ExternalAccount })
  @ApiNotFoundResponse({ description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" })
  externalAccount(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
  ): Promise<ExternalAccount> {
    return this.externalAccounts.get(agent.platformId, { kind: 'customer', customerId: agent.customerId }, id);
  }

  @Delete('external-accounts/:externalAccountId')
  @HttpCode(204)
  @AgentRoute({ permission: 'MANAGE_EXTERNAL_ACCOUNTS', initiates: true })
  @ApiOperation({ summary: 'Delete agent external account', operationId: 'agentDeleteExternalAccount' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: "ACCOUNT_NOT_FOUND: not an account of the agent's customer" })
  async deleteExternalAccount(
    @CurrentAgent() agent: AgentPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
  ): Promise<void> {
    await this.externalAccounts.delete(agent.platformId, { kind: 'customer', customerId: agent.customerId }, id);
  }
}
