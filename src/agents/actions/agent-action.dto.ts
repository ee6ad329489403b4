import { PageQuery } from '../../common/pagination.js';
import { DateRangeQuery } from '../../common/time-range.js';
import { EnumField, IdField, StringField } from '../../common/validation.js';
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

/** The reference's TransactionStatus. */
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const;

/** `GET /agents/me/transactions` (reference agentListTransactions). */
export class AgentTransactionsQuery extends DateRangeQuery {
  @StringField({ required: false, maxLength: 255, description: 'Sender or receiver account id' })
  accountIdentifier?: string;

  @StringField({ required: false, maxLength: 255, description: 'Sender account id' })
  senderAccountIdentifier?: string;

  @StringField({ required: false, maxLength: 255, description: 'Receiver account id' })
  receiverAccountIdentifier?: string;

  @EnumField(TRANSACTION_STATUSES, { required: false })
  status?: string;

  @EnumField(['INCOMING', 'OUTGOING'], { required: false })
  type?: string;

  @StringField({ required: false, maxLength: 255, description: 'Filter by reference (the quote or transaction id)' })
  reference?: string;
}

/** The reference's AgentActionRejectRequest. */
export class AgentActionRejectRequest {
  @StringField({ required: false, maxLength: 1024, description: 'Why; stored on the action as rejectionReason' })
  reason?: string;
}
