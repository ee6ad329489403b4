import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AgentAuth } from '../auth/auth.decorators.js';
/**
 * An agent-side route (AgentAuth scheme: `Authorization: Bearer gat_...`). `permission`: what the
 * agent's policy must grant (403 FORBIDDEN otherwise). `initiates`: the route starts something
 * (a quote, an execution, an external-account change), so a paused agent is refused with 403
 * FORBIDDEN saying it is paused; reads stay open to a paused agent.
 */
export const AgentRoute = (options = {}) => applyDecorators(AgentAuth(options), ApiBearerAuth('AgentAuth'), ApiUnauthorizedResponse({ description: 'UNAUTHORIZED: missing, invalid, superseded or deleted-agent token' }), ...(options.permission || options.initiates
    ? [ApiForbiddenResponse({ description: 'FORBIDDEN: the policy lacks the permission, or the agent is paused' })]
    : []));
//# sourceMappingURL=agent-route.js.map