import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RealTime } from '../common/clock.js';
import type { CardConfigs, CardProgram } from './card-program.js';

export interface CounterpartyFieldDefinition {
  name: string;
  mandatory: boolean;
}

export interface PlatformCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: CounterpartyFieldDefinition[];
  enabledTransactionTypes: string[];
}

/** The reference's FeeType: the kinds of activity a platform fee applies to. */
export const FEE_TYPES = ['CROSS_CURRENCY_TRANSACTION'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/**
 * A platform-collected fee (the reference's FeeConfig), added on top of the service's fees on every
 * transaction of `feeType` sent in `sourceCurrency`: `fixedFee.amount` minor units of the source
 * currency plus `variableFeeBps` of the sending amount. At most one per (feeType, sourceCurrency).
 */
export interface FeeConfig {
  feeType: FeeType;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** The reference's EmbeddedWalletConfig (branding and OTP settings of the wallet OTP email). */
export interface EmbeddedWalletConfig {
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  logoUrl?: string;
}

@Entity('platform_configs')
export class PlatformConfigEntity {
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid')
  id: string;

  @Column('text', { name: 'uma_domain', nullable: true })
  umaDomain: string | null;

  @Column('text', { name: 'proxy_uma_subdomain', nullable: true })
  proxyUmaSubdomain: string | null;

  @Column('text', { name: 'webhook_endpoint', nullable: true })
  webhookEndpoint: string | null;

  @Column('jsonb', { name: 'supported_currencies' })
  supportedCurrencies: PlatformCurrencyConfig[];

  @Column('jsonb', { name: 'fee_configs' })
  feeConfigs: FeeConfig[];

  @Column('jsonb', { name: 'card_configs' })
  cardConfigs: CardConfigs;

  @Column('jsonb', { name: 'card_program' })
  cardProgram: CardProgram;

  /** Subject to counterparty rules (e.g. the EU Travel Rule): self-custody wallets need ownershipType. */
  @Column('boolean', { name: 'counterparty_requirements' })
  counterpartyRequirements: boolean;

  @Column('boolean', { name: 'is_regulated_financial_institution' })
  isRegulatedFinancialInstitution: boolean;

  /** The reference's EmbeddedWalletConfig; null: embedded wallets are not configured (none is provisioned). */
  @Column('jsonb', { name: 'embedded_wallet_config', nullable: true })
  embeddedWalletConfig: EmbeddedWalletConfig | null;

  /** The own webhook types the platform asked for (docs/webhooks.md#own-event-types); OutboxService.write reads it. */
  @Column('text', { name: 'extra_webhook_types', array: true, default: () => "'{}'" })
  extraWebhookTypes: string[];

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

export const DEFAULT_SUPPORTED_CURRENCIES: PlatformCurrencyConfig[] = [
  {
    currencyCode: 'USD',
    minAmount: 1,
    maxAmount: 100_000_000,
    requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
    enabledTransactionTypes: ['OUTGOING', 'INCOMING', 'CARD'],
  },
];

/** A platform's webhook signing material; private parts encrypted with the server key. */
@Entity('webhook_signing_keys')
export class WebhookSigningKeysEntity {
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** ECDSA P-256 public key, SPKI PEM: `webhookPublicKey` in GET /config. */
  @Column('text', { name: 'public_key' })
  publicKey: string;

  /** PKCS8 PEM private key, sealed (`SecretBox.seal`). */
  @Column('text', { name: 'private_key_enc' })
  privateKeyEnc: string;

  /** Current Standard Webhooks `whsec_` secret, encrypted. */
  @Column('text', { name: 'secret_enc' })
  secretEnc: string;

  /** The secret before the last rotation: still signs until `previousSecretExpiresAt`. */
  @Column('text', { name: 'previous_secret_enc', nullable: true })
  previousSecretEnc: string | null;

  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt: RealTime | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
