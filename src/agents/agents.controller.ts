import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, Public, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import type { Page } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { AgentPolicyUpdateRequest } from './agent-policy.js';
import {
  Agent,
  AgentCreateRequest,
  AgentCreateResponse,
  AgentDeviceCode,
  AgentDeviceCodeRedeemResponse,
  AgentDeviceCodeStatusResponse,
  AgentUpdateRequest,
  ListAgentsQuery,
} from './agent.dto.js';
import { AgentsService } from './agents.service.js';

const AgentIdPipe = new IdPipe('Agent');
const notFound = ApiNotFoundResponse({ description: 'NOT_FOUND: no such agent on this platform' });

/**
 * Agent management, called by the platform backend (HTTP Basic): reads need VIEW, everything else
 * TRANSACT. Bodies are typed `unknown`: the service validates them (every FieldError in one 400).
 */
@ApiTags('Agent Management')
@ApiBasicAuth('BasicAuth')
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Create an agent', operationId: 'createAgent' })
  @ApiBody({ type: AgentCreateRequest })
  @ApiCreatedResponse({ type: AgentCreateResponse })
  @ApiNotFoundResponse({ description: 'CUSTOMER_NOT_FOUND' })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<AgentCreateResponse> {
    return this.agents.create(p.platformId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List agents', operationId: 'listAgents' })
  @ApiOkResponse({ type: PageOf(Agent, 'AgentListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListAgentsQuery): Promise<Page<Agent>> {
    return this.agents.list(p.platformId, query);
  }

  @Get('device-codes/:code/status')
  @ApiOperation({ summary: 'Get device code status', operationId: 'getAgentDeviceCodeStatus' })
  @ApiOkResponse({ type: AgentDeviceCodeStatusResponse })
  @ApiNotFoundResponse({ description: 'NOT_FOUND: no such device code on this platform' })
  deviceCodeStatus(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('code') code: string,
  ): Promise<AgentDeviceCodeStatusResponse> {
    return this.agents.deviceCodeStatus(p.platformId, code);
  }

  @Get(':agentId')
  @ApiOperation({ summary: 'Get agent by ID', operationId: 'getAgentById' })
  @ApiOkResponse({ type: Agent })
  @notFound
  get(@CurrentPlatform() p: PlatformPrincipal, @Param('agentId', AgentIdPipe) agentId: string): Promise<Agent> {
    return this.agents.get(p.platformId, agentId);
  }

  @Patch(':agentId')
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Update agent', operationId: 'updateAgent' })
  @ApiBody({ type: AgentUpdateRequest })
  @ApiOkResponse({ type: Agent })
  @notFound
  update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('agentId', AgentIdPipe) agentId: string,
    @Body() body: unknown,
  ): Promise<Agent> {
    return this.agents.update(p.platformId, agentId, body);
  }

  @Delete(':agentId')
  @HttpCode(204)
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Delete agent', operationId: 'deleteAgent' })
  @ApiNoContentResponse({ description: 'Deleted; its access token stops working at once' })
  @notFound
  async remove(@CurrentPlatform() p: PlatformPrincipal, @Param('agentId', AgentIdPipe) agentId: string): Promise<void> {
    await this.agents.remove(p.platformId, agentId);
  }

  @Patch(':agentId/policy')
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Update agent policy', operationId: 'updateAgentPolicy' })
  @ApiBody({ type: AgentPolicyUpdateRequest })
  @ApiOkResponse({ type: Agent })
  @notFound
  updatePolicy(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('agentId', AgentIdPipe) agentId: string,
    @Body() body: unknown,
  ): Promise<Agent> {
    return this.agents.updatePolicy(p.platformId, agentId, body);
  }

  @Post(':agentId/device-codes')
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Regenerate a device code', operationId: 'regenerateAgentDeviceCode' })
  @ApiCreatedResponse({ type: AgentDeviceCode })
  @ApiConflictResponse({ description: 'CONFLICT: the agent is connected (its device code was redeemed)' })
  @notFound
  regenerateDeviceCode(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('agentId', AgentIdPipe) agentId: string,
  ): Promise<AgentDeviceCode> {
    return this.agents.regenerateDeviceCode(p.platformId, agentId);
  }
}

/**
 * Installation: called by the agent software with no credentials (reference: `security: []`), so
 * it lives apart from the Basic-auth controller.
 */
@ApiTags('Agent Management')
@Controller('agents')
export class AgentInstallController {
  constructor(private readonly agents: AgentsService) {}

  /** Public: the device code itself is the proof of authorization (reference: `security: []`). */
  @Post('device-codes/:code/redeem')
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Redeem device code', operationId: 'redeemAgentDeviceCode' })
  @ApiOkResponse({ type: AgentDeviceCodeRedeemResponse })
  @ApiNotFoundResponse({ description: 'NOT_FOUND: unknown device code' })
  redeem(@Param('code') code: string): Promise<AgentDeviceCodeRedeemResponse> {
    return this.agents.redeem(code);
  }
}
