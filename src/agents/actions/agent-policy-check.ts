import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AgentPrincipal } from '../../auth/auth.decorators.js';
import { ApiError } from '../../errors/api-error.js';
import type { QuoteAccountsCheck } from '../../payments/quotes/quotes.service.js';
import { renderPolicy } from '../agent-policy.js';
import { AgentEntity } from '../agent.entity.js';
import { accountOutsidePolicy } from '../policy-evaluator.js';

/** The agent's policy beside the quotes area: a quote may touch only the policy's allowedAccountIds. */
@Injectable()
export class AgentPolicyCheck {
  accountsAllowed(agent: AgentPrincipal): QuoteAccountsCheck {
    return async (m: EntityManager, internalAccountIds: string[]) => {
      const row = await m.findOne(AgentEntity, { where: { id: agent.agentId, platformId: agent.platformId } });
      const outside = row ? accountOutsidePolicy(renderPolicy(row.policy), internalAccountIds) : undefined;
      if (outside !== undefined) {
        throw new ApiError('FORBIDDEN', `The agent's policy does not allow account ${outside}`, {
          details: { limit: 'allowedAccountIds', accountId: outside },
        });
      }
    };
  }
}
