import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../../common/clock.js';

/** A Plaid Link token the platform created for one of its customers (`POST /plaid/link-tokens`). */
@Entity('plaid_link_tokens')
export class PlaidLinkTokenEntity {
  /** Plaid's `link_token` (the callback URL's path parameter). */
  @PrimaryColumn('text', { name: 'link_token' })
  linkToken: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  /** After it, the callback is refused (the platform's clock; src/common/schedules.ts). */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: BusinessTime;

  /** The account the callback created: a token is used once. */
  @Column('uuid', { name: 'external_account_id', nullable: true })
  externalAccountId: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
