import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatId } from '../../common/ids.js';
import type { IncomingTransactionEntity } from '../../payments/transactions/incoming-transaction.entity.js';
import type { OutgoingTransactionEntity } from '../../payments/transactions/outgoing-transaction.entity.js';
import {
  IncomingTransactionView,
  OutgoingTransactionView,
  renderIncomingTransaction,
  renderOutgoingTransaction,
} from '../../payments/transactions/transaction.render.js';
import { TRANSACTION_ONE_OF } from '../../payments/transactions/transaction-schema.js';
import { QuoteView } from '../../payments/quotes/quote.dto.js';
import type { QuoteEntity } from '../../payments/quotes/quote.entity.js';
import { renderQuote } from '../../payments/quotes/quote.render.js';
import { AGENT_ACTION_STATUSES, AGENT_ACTION_TYPES } from './agent-action.entity.js';
import type { AgentActionEntity, AgentActionStatus, AgentActionType } from './agent-action.entity.js';

/** The reference's AgentTransferDetails. */
export class AgentTransferDetailsView {
  @ApiProperty({ description: 'Minor units of `currency`' }) amount: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'InternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123' }) sourceAccountId: string;
  @ApiProperty({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }) destinationAccountId: string;
}

/** The spec's AgentAction. */
export class AgentActionView {
  @ApiProperty({ example: 'AgentAction:019542f5-b3e7-1d02-0000-000000000099' }) id: string;
  @ApiProperty() agentId: string;
  @ApiProperty() customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiProperty({ enum: AGENT_ACTION_STATUSES }) status: AgentActionStatus;
  @ApiProperty({ enum: AGENT_ACTION_TYPES }) type: AgentActionType;
  @ApiPropertyOptional({ type: QuoteView, description: 'EXECUTE_QUOTE only' }) quote?: QuoteView;
  @ApiPropertyOptional({ type: AgentTransferDetailsView, description: 'TRANSFER_OUT and TRANSFER_IN only' })
  transferDetails?: AgentTransferDetailsView;
  @ApiPropertyOptional({
    ...TRANSACTION_ONE_OF,
    description:
      'Once approved (APPROVED, or FAILED with its failureReason); absent while PENDING_APPROVAL or REJECTED. Incoming for TRANSFER_IN.',
  })
  transaction?: OutgoingTransactionView | IncomingTransactionView;
  @ApiPropertyOptional({ description: 'Only when REJECTED with a reason' }) rejectionReason?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/**
 * What an action renders from: the action, its quote (EXECUTE_QUOTE, TRANSFER_OUT), its
 * transaction once executed (outgoing; incoming for TRANSFER_IN), its customer's platform id.
 */
export interface ActionParts {
  action: AgentActionEntity;
  quote: QuoteEntity | null;
  transaction: OutgoingTransactionEntity | null;
  incoming?: IncomingTransactionEntity | null;
  platformCustomerId: string;
}

/**
 * The spec's rules: `transaction` never while PENDING_APPROVAL or REJECTED (nothing was executed),
 * `rejectionReason` only when REJECTED with a reason.
 */
export function renderAgentAction(parts: ActionParts, now: Date): AgentActionView {
  const { action, quote, transaction, platformCustomerId } = parts;
  const executed = action.status === 'APPROVED' || action.status === 'FAILED';
  const owner = { customerId: formatId('Customer', action.customerId), platformCustomerId };
  const incoming = parts.incoming ?? null;
  return {
    id: formatId('AgentAction', action.id),
    agentId: formatId('Agent', action.agentId),
    customerId: formatId('Customer', action.customerId),
    platformCustomerId,
    status: action.status,
    type: action.type,
    ...(action.type === 'EXECUTE_QUOTE' && quote ? { quote: renderQuote(quote, now) } : {}),
    ...(action.transfer ? { transferDetails: action.transfer } : {}),
    ...(executed && transaction ? { transaction: renderOutgoingTransaction(transaction, owner) } : {}),
    ...(executed && incoming ? { transaction: renderIncomingTransaction(incoming, owner) } : {}),
    ...(action.status === 'REJECTED' && action.rejectionReason !== null
      ? { rejectionReason: action.rejectionReason }
      : {}),
    createdAt: action.createdAt.toISOString(),
    updatedAt: action.updatedAt.toISOString(),
  };
}
