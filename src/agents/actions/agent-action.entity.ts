import { Column, Entity, PrimaryColumn } from 'typeorm';

export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];
export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

/** The reference's AgentTransferDetails (ids formatted, amount in minor units). */
export interface AgentTransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

/**
 * Something an agent submitted: executing one quote (at most one action per quote), a transfer-out
 * (a same-currency quote, executed the same way) or a transfer-in (no quote; an incoming
 * transaction once it runs).
 */
@Entity('agent_actions')
export class AgentActionEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Part of the key (issue 49): every statement by key pins the platform. */
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'agent_id' })
  agentId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text')
  type: AgentActionType;

  /** EXECUTE_QUOTE and TRANSFER_OUT; null for TRANSFER_IN. */
  @Column('uuid', { name: 'quote_id', nullable: true })
  quoteId: string | null;

  /** TRANSFER_OUT and TRANSFER_IN: what was asked for. */
  @Column('jsonb', { nullable: true })
  transfer: AgentTransferDetails | null;

  /** TRANSFER_IN, once it ran: its incoming transaction. */
  @Column('uuid', { name: 'incoming_transaction_id', nullable: true })
  incomingTransactionId: string | null;

  @Column('text')
  status: AgentActionStatus;

  @Column('text', { name: 'rejection_reason', nullable: true })
  rejectionReason: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
