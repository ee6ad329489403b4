import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime, RealTime } from '../common/clock.js';
import type {
  GridOperationsStatus,
  IssuanceStatus,
  OperationDestination,
  OperationOutcome,
  OperationSource,
  OperationStatus,
  OperationType,
  ProviderAccountStatus,
  ProviderEnvironment,
  StablecoinNetwork,
  StablecoinProviderName,
} from './stablecoin.types.js';

/** A platform's link to a provider account (`StablecoinProviderAccount`); the client secret is sealed. */
@Entity('stablecoin_provider_accounts')
export class StablecoinProviderAccountEntity {
  @PrimaryColumn('uuid') id: string;
  @PrimaryColumn('uuid', { name: 'platform_id' }) platformId: string;
  @Column('text') provider: StablecoinProviderName;
  @Column('text', { name: 'provider_environment' }) providerEnvironment: ProviderEnvironment;
  @Column('text', { name: 'provider_account_id' }) providerAccountId: string;
  @Column('text', { name: 'api_client_id' }) apiClientId: string;
  /** SecretBox-sealed; never rendered. */
  @Column('text', { name: 'api_client_secret' }) apiClientSecret: string;
  @Column('text') status: ProviderAccountStatus;
  @Column('timestamptz', { name: 'last_verified_at', nullable: true }) lastVerifiedAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

/** A registered stablecoin (`Stablecoin`). */
@Entity('stablecoins')
export class StablecoinEntity {
  @PrimaryColumn('uuid') id: string;
  @PrimaryColumn('uuid', { name: 'platform_id' }) platformId: string;
  /** The link's uuid (stablecoin_provider_accounts.id). */
  @Column('uuid', { name: 'provider_account_id' }) providerAccountId: string;
  @Column('text') provider: StablecoinProviderName;
  @Column('text', { name: 'provider_environment' }) providerEnvironment: ProviderEnvironment;
  @Column('text') name: string;
  @Column('text') symbol: string;
  @Column('text', { name: 'base_currency' }) baseCurrency: string;
  @Column('text') network: StablecoinNetwork;
  @Column('integer') decimals: number;
  @Column('text', { name: 'issuance_status' }) issuanceStatus: IssuanceStatus;
  @Column('text', { name: 'grid_operations_status' }) gridOperationsStatus: GridOperationsStatus;
  @Column('text', { name: 'network_token_identifier' }) networkTokenIdentifier: string;
  @Column('text', { name: 'provider_token_identifier' }) providerTokenIdentifier: string;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

/** A mint or burn (`StablecoinOperation`). */
@Entity('stablecoin_operations')
export class StablecoinOperationEntity {
  @PrimaryColumn('uuid') id: string;
  @PrimaryColumn('uuid', { name: 'platform_id' }) platformId: string;
  @Column('uuid', { name: 'stablecoin_id' }) stablecoinId: string;
  @Column('uuid', { name: 'provider_account_id' }) providerAccountId: string;
  @Column('text', { name: 'operation_type' }) operationType: OperationType;
  @Column('text') status: OperationStatus;
  /** The coin's smallest unit (bigint, as text). */
  @Column('bigint') amount: string;
  /** The same amount in the fiat's minor units (cents). */
  @Column('bigint', { name: 'fiat_amount' }) fiatAmount: string;
  @Column('text', { name: 'fiat_currency' }) fiatCurrency: string;
  @Column('jsonb') source: OperationSource;
  @Column('jsonb') destination: OperationDestination;
  @Column('jsonb', { name: 'funding_instructions', nullable: true }) fundingInstructions: Record<string, string> | null;
  @Column('jsonb', { name: 'estimated_delivery', nullable: true }) estimatedDelivery: Record<string, string> | null;
  @Column('text', { name: 'provider_operation_id' }) providerOperationId: string;
  /** The provider's ids of the accounts involved (its address ids): internal, never rendered. */
  @Column('jsonb', { name: 'provider_refs' }) providerRefs: Record<string, string>;
  @Column('text', { name: 'provider_status', nullable: true }) providerStatus: string | null;
  @Column('text') outcome: OperationOutcome;
  @Column('text', { name: 'failure_reason', nullable: true }) failureReason: string | null;
  @Column('text', { nullable: true }) description: string | null;
  /** BUSINESS time (the platform's clock): an operation still waiting for its funds EXPIRES then. */
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: BusinessTime | null;
  /** INFRASTRUCTURE time (RealClock): when the sandbox provider takes its next step. */
  @Column('timestamptz', { name: 'next_step_at', nullable: true }) nextStepAt: RealTime | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}
