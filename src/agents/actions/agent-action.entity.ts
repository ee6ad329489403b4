import { Column, Entity, PrimaryColumn } from 'typeorm';

export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];
export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

/** Something an agent submitted: executing one quote (at most one action per quote). */
@Entity('agent_actions')
export class AgentActionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'agent_id' })
  agentId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text')
  type: AgentActionType;

  @Column('uuid', { name: 'quote_id' })
  quoteId: string;

  @Column('text')
  status: AgentActionStatus;

  @Column('text', { name: 'rejection_reason', nullable: true })
  rejectionReason: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
