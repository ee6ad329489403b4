import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CARD_TRANSACTION_STATUSES = [
  'AUTHORIZED',
  'PARTIALLY_SETTLED',
  'SETTLED',
  'DECLINED',
  'VOIDED',
  'EXCEPTION',
] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];

export const CARD_DECLINED_REASONS = [
  'CARD_NOT_ACTIVE',
  'SPEND_LIMIT_EXCEEDED',
  'INSUFFICIENT_FUNDS',
  'NO_ELIGIBLE_FUNDING_SOURCE',
  'BLOCKED',
  'UNSUPPORTED_NETWORK',
  'OTHER',
] as const;
export type CardDeclinedReason = (typeof CARD_DECLINED_REASONS)[number];

export const TRANSACTION_DIRECTIONS = ['DEBIT', 'CREDIT'] as const;
export type TransactionDirection = (typeof TRANSACTION_DIRECTIONS)[number];

/** The reference's CardMerchant, as the network (here: the simulation) reported it. */
export interface CardMerchantInfo {
  descriptor: string;
  mcc?: string;
  city?: string;
  state?: string;
  country?: string;
}

/**
 * One cardholder-visible card transaction (`Transaction:<uuid>`): a purchase (DEBIT) from its
 * authorization through its clearings, or a merchant return (CREDIT) linked to its purchase.
 */
@Entity('card_transactions')
export class CardTransactionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'card_id' })
  cardId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  /** The internal account that funded it (the card's funding source at authorization). */
  @Column('uuid', { name: 'account_id' })
  accountId: string;

  @Column('text')
  direction: TransactionDirection;

  @Column('text')
  status: CardTransactionStatus;

  @Column('text', { name: 'declined_reason', nullable: true })
  declinedReason: CardDeclinedReason | null;

  /** On a return (CREDIT): the purchase it credits back against. */
  @Column('uuid', { name: 'original_transaction_id', nullable: true })
  originalTransactionId: string | null;

  @Column('text', { name: 'issuer_transaction_token' })
  issuerTransactionToken: string;

  @Column('text')
  currency: string;

  @Column('jsonb')
  merchant: CardMerchantInfo;

  /** The amount authorized (requested, on a decline); what the day's limits count. */
  @Column('bigint', { name: 'authorized_amount' })
  authorizedAmount: string;

  /** Released again by reversals and expiries (authorization minus this is still authorized). */
  @Column('bigint', { name: 'reversed_amount' })
  reversedAmount: string;

  /** Sum of the clearings (on a return: the amount credited). */
  @Column('bigint', { name: 'settled_amount' })
  settledAmount: string;

  /** Sum of the returns posted against this purchase. */
  @Column('bigint', { name: 'refunded_amount' })
  refundedAmount: string;

  /** The ledger hold of an approved authorization. */
  @Column('uuid', { name: 'hold_id', nullable: true })
  holdId: string | null;

  /**
   * A card funded by an embedded wallet: the authorization signed by the card's ACTIVE delegated
   * key (`{delegatedKeyId, payload, stamp}`, docs/embedded-wallets.md); null otherwise.
   */
  @Column('jsonb', { name: 'wallet_authorization', nullable: true })
  walletAuthorization: { delegatedKeyId: string; payload: string; stamp: string } | null;

  /** The sandbox issuer's instruction for the funding pull (`006`: the confirmation fails). */
  @Column('text', { name: 'pull_outcome' })
  pullOutcome: 'OK' | 'CONFIRMATION_FAILS';

  @Column('timestamptz', { name: 'authorized_at' })
  authorizedAt: Date;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
