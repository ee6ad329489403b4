import { AgentActionEntity } from '../agents/actions/agent-action.entity.js';
import { AgentAccessTokenEntity, AgentDeviceCodeEntity, AgentEntity } from '../agents/agent.entity.js';
import { AuditEventEntity } from '../audit/audit-event.entity.js';
import { BeneficialOwnerEntity } from '../beneficial-owners/beneficial-owner.entity.js';
import { DocumentEntity } from '../documents/document.entity.js';
import { KycLinkEntity, VerificationEntity } from '../verifications/verification.entity.js';
import { ApiTokenEntity } from '../auth/api-token.entity.js';
import { CardTransactionEntity } from '../cards/card-transaction.entity.js';
import { CardEntity, CardStatusHistoryEntity } from '../cards/card.entity.js';
import { CustomerEntity } from '../customers/customer.entity.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { LedgerEntryEntity } from '../ledger/ledger-entry.entity.js';
import { LedgerHoldEntity } from '../ledger/ledger-hold.entity.js';
import { ExternalAccountEntity } from '../external-accounts/external-account.entity.js';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity.js';
import { OutboxAggregateEntity, OutboxAttemptEntity, OutboxEventEntity } from '../outbox/outbox.entities.js';
import { PlatformConfigEntity, WebhookSigningKeysEntity } from '../platform-config/platform-config.entity.js';
import { PlatformEntity } from '../platforms/platform.entity.js';
import { OutgoingTransactionEntity } from '../payments/transactions/outgoing-transaction.entity.js';
import { RailEventEntity } from '../payments/rail/rail-event.entity.js';
import { SandboxRailPaymentEntity } from '../payments/rail/sandbox-rail-payment.entity.js';
import { QuoteEntity } from '../payments/quotes/quote.entity.js';
import {
  IncomingTransactionEntity,
  PaymentTransactionIndexEntity,
} from '../payments/transactions/incoming-transaction.entity.js';
import { Foundation1767225600000 } from './migrations/1767225600000-Foundation.js';
import { PlatformConfig1767225700000 } from './migrations/1767225700000-PlatformConfig.js';
import { Customers1767225800000 } from './migrations/1767225800000-Customers.js';
import { ExternalAccounts1767225900000 } from './migrations/1767225900000-ExternalAccounts.js';
import { Outbox1767226000000 } from './migrations/1767226000000-Outbox.js';
import { OutboxFairClaim1767226700000 } from './migrations/1767226700000-OutboxFairClaim.js';
import { OutboxHeadIndex1767226800000 } from './migrations/1767226800000-OutboxHeadIndex.js';
import { Cards1767227000000 } from './migrations/1767227000000-Cards.js';
import { LedgerHolds1767227100000 } from './migrations/1767227100000-LedgerHolds.js';
import { CardTransactions1767227110000 } from './migrations/1767227110000-CardTransactions.js';
import { Agents1767227200000 } from './migrations/1767227200000-Agents.js';
import { AgentQuotes1767227300000 } from './migrations/1767227300000-AgentQuotes.js';
import { OutboxAggregateType1767227450000 } from './migrations/1767227450000-OutboxAggregateType.js';
import { SandboxClocks1767227500000 } from './migrations/1767227500000-SandboxClocks.js';
import { SandboxClockAdvanceEntity } from '../sandbox-clock/sandbox-clock.entity.js';
import { AuditTrail1767227600000 } from './migrations/1767227600000-AuditTrail.js';
import { ConsoleSessions1767227700000 } from './migrations/1767227700000-ConsoleSessions.js';
import { OutboxTraceContext1767227800000 } from './migrations/1767227800000-OutboxTraceContext.js';
import { ProvisioningOnRealTime1767228000000 } from './migrations/1767228000000-ProvisioningOnRealTime.js';
import { Sca1767228700000 } from './migrations/1767228700000-Sca.js';
import { Payments1767228400000 } from './migrations/1767228400000-Payments.js';
import { DoubleEntryLedger1767228300000 } from './migrations/1767228300000-DoubleEntryLedger.js';
import { LedgerBalancedJournals1767228310000 } from './migrations/1767228310000-LedgerBalancedJournals.js';
import { QuoteAuthorization1767228750000 } from './migrations/1767228750000-QuoteAuthorization.js';
import { ScaResendLimit1767228931000 } from './migrations/1767228931000-ScaResendLimit.js';
import { Uma1767228800000 } from './migrations/1767228800000-Uma.js';
import { UmaPayments1767228900000 } from './migrations/1767228900000-UmaPayments.js';
import { PlatformFeeConfigs1767228910000 } from './migrations/1767228910000-PlatformFeeConfigs.js';
import { PaymentDocuments1767228920000 } from './migrations/1767228920000-PaymentDocuments.js';
import { IncomingPayments1767228960000 } from './migrations/1767228960000-IncomingPayments.js';
import { ConsoleOverviewIndexes1767229000000 } from './migrations/1767229000000-ConsoleOverviewIndexes.js';
import { CardDayUsage1767229050000 } from './migrations/1767229050000-CardDayUsage.js';
import { UmaReconciliation1767229200000 } from './migrations/1767229200000-UmaReconciliation.js';
import { AgentTransfers1767230200000 } from './migrations/1767230200000-AgentTransfers.js';
import { ContactVerification1767230200100 } from './migrations/1767230200100-ContactVerification.js';
import { AuditUnlinked1767228100000 } from './migrations/1767228100000-AuditUnlinked.js';
import { Onboarding1767228600000 } from './migrations/1767228600000-Onboarding.js';
import { BulkImport1767228610000 } from './migrations/1767228610000-BulkImport.js';
import { Stablecoins1767229100000 } from './migrations/1767229100000-Stablecoins.js';
import { ExternalAccountVerification1767230300000 } from './migrations/1767230300000-ExternalAccountVerification.js';
import { PlaidLinkTokenEntity } from '../external-accounts/plaid/plaid-link-token.entity.js';
import { EmbeddedWallets1767230100000 } from './migrations/1767230100000-EmbeddedWallets.js';
import { WalletMoney1767230600000 } from './migrations/1767230600000-WalletMoney.js';
import { WalletSeeds1767230610000 } from './migrations/1767230610000-WalletSeeds.js';
import { DelegatedKeys1767230620000 } from './migrations/1767230620000-DelegatedKeys.js';
import { OneTimeCodeHardening1767230700000 } from './migrations/1767230700000-OneTimeCodeHardening.js';
import { RailPort1767230900000 } from './migrations/1767230900000-RailPort.js';
import { ExchangeRateSets1767231100000 } from './migrations/1767231100000-ExchangeRateSets.js';
import { ExtraWebhookTypes1767231300000 } from './migrations/1767231300000-ExtraWebhookTypes.js';
import { ExternalAccountKeyPerPlatform1767231400000 } from './migrations/1767231400000-ExternalAccountKeyPerPlatform.js';
import { DistributionKeys1767231500000 } from './migrations/1767231500000-DistributionKeys.js';
import { RoutingKeys1767231600000 } from './migrations/1767231600000-RoutingKeys.js';
import {
  StablecoinEntity,
  StablecoinOperationEntity,
  StablecoinProviderAccountEntity,
} from '../stablecoins/stablecoin.entities.js';

/** Every entity and migration, listed once: the app, the CLI and ormconfig.ts use these lists. */
export const ENTITIES = [
  PlatformEntity,
  ApiTokenEntity,
  IdempotencyKeyEntity,
  PlatformConfigEntity,
  CustomerEntity,
  InternalAccountEntity,
  LedgerEntryEntity,
  LedgerHoldEntity,
  ExternalAccountEntity,
  PlaidLinkTokenEntity,
  OutboxEventEntity,
  OutboxAttemptEntity,
  OutboxAggregateEntity,
  WebhookSigningKeysEntity,
  CardEntity,
  CardStatusHistoryEntity,
  CardTransactionEntity,
  AgentEntity,
  AgentDeviceCodeEntity,
  AgentAccessTokenEntity,
  QuoteEntity,
  AgentActionEntity,
  OutgoingTransactionEntity,
  RailEventEntity,
  SandboxRailPaymentEntity,
  IncomingTransactionEntity,
  PaymentTransactionIndexEntity,
  SandboxClockAdvanceEntity,
  AuditEventEntity,
  BeneficialOwnerEntity,
  DocumentEntity,
  VerificationEntity,
  KycLinkEntity,
  StablecoinProviderAccountEntity,
  StablecoinEntity,
  StablecoinOperationEntity,
];
export const MIGRATIONS = [
  Foundation1767225600000,
  PlatformConfig1767225700000,
  Customers1767225800000,
  ExternalAccounts1767225900000,
  Outbox1767226000000,
  OutboxFairClaim1767226700000,
  OutboxHeadIndex1767226800000,
  Cards1767227000000,
  LedgerHolds1767227100000,
  CardTransactions1767227110000,
  Agents1767227200000,
  AgentQuotes1767227300000,
  OutboxAggregateType1767227450000,
  SandboxClocks1767227500000,
  AuditTrail1767227600000,
  ConsoleSessions1767227700000,
  OutboxTraceContext1767227800000,
  ProvisioningOnRealTime1767228000000,
  Sca1767228700000,
  Payments1767228400000,
  DoubleEntryLedger1767228300000,
  LedgerBalancedJournals1767228310000,
  QuoteAuthorization1767228750000,
  Uma1767228800000,
  UmaPayments1767228900000,
  PlatformFeeConfigs1767228910000,
  PaymentDocuments1767228920000,
  IncomingPayments1767228960000,
  AuditUnlinked1767228100000,
  Onboarding1767228600000,
  BulkImport1767228610000,
  ScaResendLimit1767228931000,
  ConsoleOverviewIndexes1767229000000,
  CardDayUsage1767229050000,
  Stablecoins1767229100000,
  UmaReconciliation1767229200000,
  AgentTransfers1767230200000,
  ContactVerification1767230200100,
  ExternalAccountVerification1767230300000,
  EmbeddedWallets1767230100000,
  WalletMoney1767230600000,
  WalletSeeds1767230610000,
  DelegatedKeys1767230620000,
  OneTimeCodeHardening1767230700000,
  RailPort1767230900000,
  ExchangeRateSets1767231100000,
  ExtraWebhookTypes1767231300000,
  ExternalAccountKeyPerPlatform1767231400000,
  DistributionKeys1767231500000,
  RoutingKeys1767231600000,
];
