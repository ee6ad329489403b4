import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../common/clock.js';
import type { AgentPolicy } from './agent-policy.js';

/**
 * An agent: acts for one customer of one platform under its policy. `policy` is stored as
 * rendered (defaults applied, see agent-policy.ts). The usage counters are the policy's running
 * totals; they reset lazily by UTC date and month (`currentUsage`), and only a transaction that
 * holds the row FOR UPDATE changes them. Deleting is soft (`deletedAt`): its actions stay.
 */
@Entity('agents')
export class AgentEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Part of the key (issue 49): every statement by key pins the platform. */
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text')
  name: string;

  @Column('boolean', { name: 'is_paused' })
  isPaused: boolean;

  /** A device code of it has been redeemed. */
  @Column('boolean', { name: 'is_connected' })
  isConnected: boolean;

  @Column('jsonb')
  policy: AgentPolicy;

  @Column('integer', { name: 'daily_transaction_count' })
  dailyTransactionCount: number;

  /** Minor units of the policy's spendingLimits.currency (bigint, read as a decimal string). */
  @Column('bigint', { name: 'daily_spend' })
  dailySpend: string;

  @Column('bigint', { name: 'monthly_spend' })
  monthlySpend: string;

  /** `YYYY-MM-DD`: the UTC date at which the daily counters next reset. */
  @Column('text', { name: 'daily_reset_date' })
  dailyResetDate: string;

  /** `YYYY-MM`: the UTC month at which the monthly counter next resets. */
  @Column('text', { name: 'monthly_reset_month' })
  monthlyResetMonth: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;
}

/** A one-time installation code; only its SHA-256 hash is stored. */
@Entity('agent_device_codes')
export class AgentDeviceCodeEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Part of the key (issue 49): every statement by key pins the platform. */
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'agent_id' })
  agentId: string;

  @Column('bytea', { name: 'code_hash' })
  codeHash: Buffer;

  /** Business time: set and compared on the platform's clock (src/common/schedules.ts). */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: BusinessTime;

  @Column('timestamptz', { name: 'redeemed_at', nullable: true })
  redeemedAt: Date | null;

  /** A newer code was issued for the agent before this one was redeemed. */
  @Column('timestamptz', { name: 'superseded_at', nullable: true })
  supersededAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}

/** An agent's Bearer credential (`gat_` + 40 hex); only its SHA-256 hash is stored. */
@Entity('agent_access_tokens')
export class AgentAccessTokenEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Part of the key (issue 49): every statement by key pins the platform. */
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'agent_id' })
  agentId: string;

  /** The device code whose redemption issued it. */
  @Column('uuid', { name: 'device_code_id' })
  deviceCodeId: string;

  @Column('bytea', { name: 'token_hash' })
  tokenHash: Buffer;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** Superseded by a newer token, or the agent was deleted. */
  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
