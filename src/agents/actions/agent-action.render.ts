import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatId } from '../../common/ids.js';
import type { OutgoingTransactionEntity } from '../../payments/transactions/outgoing-transaction.entity.js';
import { OutgoingTransactionView, renderOutgoingTransaction } from '../../payments/transactions/transaction.render.js';
import { QuoteView } from '../../payments/quotes/quote.dto.js';
import type { QuoteEntity } from '../../payments/quotes/quote.entity.js';
import { renderQuote } from '../../payments/quotes/quote.render.js';
import { AGENT_ACTION_STATUSES, AGENT_ACTION_TYPES } from './agent-action.entity.js';
import type { AgentActionEntity, AgentActionStatus, AgentActionType } from './agent-action.entity.js';

/** The spec's AgentAction. */
export class AgentActionView {
  @ApiProperty({ example: 'AgentAction:019542f5-b3e7-1d02-0000-000000000099' }) id: string;
  @ApiProperty() agentId: string;
  @ApiProperty() customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiProperty({ enum: AGENT_ACTION_STATUSES }) status: AgentActionStatus;
  @ApiProperty({ enum: AGENT_ACTION_TYPES }) type: AgentActionType;
  @ApiProperty({ type: QuoteView }) quote: QuoteView;
  @ApiPropertyOptional({
    type: OutgoingTransactionView,
    description:
      'Once approved (APPROVED, or FAILED with its failureReason); absent while PENDING_APPROVAL or REJECTED',
  })
  transaction?: OutgoingTransactionView;
  @ApiPropertyOptional({ description: 'Only when REJECTED with a reason' }) rejectionReason?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** What an action renders from: the action, its quote, its transaction (once executed), its customer's platform id. */
export interface ActionParts {
  action: AgentActionEntity;
  quote: QuoteEntity;
  transaction: OutgoingTransactionEntity | null;
  platformCustomerId: string;
}

/**
 * The spec's rules: `transaction` never while PENDING_APPROVAL or REJECTED (nothing was executed),
 * `rejectionReason` only when REJECTED with a reason.
 */
export function renderAgentAction(parts: ActionParts, now: Date): AgentActionView {
  const { action, quote, transaction, platformCustomerId } = parts;
  const executed = action.status === 'APPROVED' || action.status === 'FAILED';
  return {
    id: formatId('AgentAction', action.id),
    agentId: formatId('Agent', action.agentId),
    customerId: formatId('Customer', action.customerId),
    platformCustomerId,
    status: action.status,
    type: action.type,
    quote: renderQuote(quote, now),
    ...(executed && transaction
      ? {
          transaction: renderOutgoingTransaction(transaction, {
            customerId: formatId('Customer', action.customerId),
            platformCustomerId,
          }),
        }
      : {}),
    ...(action.status === 'REJECTED' && action.rejectionReason !== null
      ? { rejectionReason: action.rejectionReason }
      : {}),
    createdAt: action.createdAt.toISOString(),
    updatedAt: action.updatedAt.toISOString(),
  };
}
