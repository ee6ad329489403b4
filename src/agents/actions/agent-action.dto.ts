import { PageQuery } from '../../common/pagination.js';
import { DateRangeQuery } from '../../common/time-range.js';
import { EnumField, IdField, StringField } from '../../common/validation.js';
import { TransactionFilters } from '../../payments/transactions/transactions.dto.js';
import { AGENT_ACTION_STATUSES } from './agent-action.entity.js';
import type { AgentActionStatus } from './agent-action.entity.js';

/** `GET /agents/me/actions` (reference agentListActions). */
export class AgentActionsQuery extends PageQuery {
  @EnumField(AGENT_ACTION_STATUSES, { required: false, description: 'Filter by action status' })
  status?: AgentActionStatus;
}

/** `GET /agents/approvals` (reference listAgentApprovals): the platform's pending actions. */
export class AgentApprovalsQuery extends DateRangeQuery {
  @IdField('Agent', { required: false, description: 'Filter by agent' })
  agentId?: string;

  @IdField('Customer', { required: false, description: 'Filter by customer' })
  customerId?: string;
}

/** `GET /agents/me/transactions` (reference agentListTransactions): the filters platforms' lists have. */
export class AgentTransactionsQuery extends TransactionFilters {}

/** The reference's AgentActionRejectRequest. */
export class AgentActionRejectRequest {
  @StringField({ required: false, maxLength: 1024, description: 'Why; stored on the action as rejectionReason' })
  reason?: string;
}
