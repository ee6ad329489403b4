import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsDefined, IsObject, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BoolField, EnumField, IdField, IntField, NestedField, StringField } from '../../common/validation.js';
import { CurrencyView } from '../../customers/internal-account.dto.js';
import { idPattern } from '../../common/ids.js';
import { LOCK_SIDES, QUOTE_SOURCE_TYPES, QUOTE_STATUSES } from './quote.entity.js';
import type { LockSide, QuoteSourceType, QuoteStatus, StoredScaChallenge } from './quote.entity.js';
import { SCA_FACTORS, type ScaFactor } from '../../sca/sca-challenges.service.js';
import { DocumentIdsField } from '../../payment-documents/payment-document.dto.js';

/** The reference's PaymentRail enum. */
export const PAYMENT_RAILS = [
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
] as const;

const ACCOUNT_ID =
  /^(InternalAccount|ExternalAccount):[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The reference's AccountQuoteSource (an agent funds quotes only from its customer's internal accounts). */
export class QuoteSourceRequest {
  @EnumField(['ACCOUNT'], { description: 'Only ACCOUNT: an internal account of the agent’s customer' })
  sourceType: 'ACCOUNT';

  @IdField('InternalAccount', { description: 'An internal account of the agent’s customer' })
  accountId: string;

  @IdField('Customer', { required: false, description: 'The agent’s customer (the only one it may name)' })
  customerId?: string;
}

/** The reference's AccountDestination: an internal or external account of the agent's customer. */
export class QuoteDestinationRequest {
  @EnumField(['ACCOUNT'], { description: 'Only ACCOUNT' })
  destinationType: 'ACCOUNT';

  @StringField({
    pattern: ACCOUNT_ID,
    format: 'InternalAccount or ExternalAccount id',
    description: 'An internal or external account of the agent’s customer',
  })
  accountId: string;

  @EnumField(PAYMENT_RAILS, { required: false })
  paymentRail?: string;
}

/** The reference's QuoteRequest, as an agent may send it. */
export class AgentQuoteRequest {
  @NestedField(() => QuoteSourceRequest)
  source: QuoteSourceRequest;

  @NestedField(() => QuoteDestinationRequest)
  destination: QuoteDestinationRequest;

  @EnumField(LOCK_SIDES, { description: 'Which side `lockedCurrencyAmount` fixes' })
  lockedCurrencySide: LockSide;

  @IntField({ min: 1, max: 9_000_000_000_000_000, description: 'Minor units of the locked side’s currency' })
  lockedCurrencyAmount: number;

  @BoolField({
    required: false,
    description: 'Only false: an agent executes through POST /agents/me/quotes/{quoteId}/execute (its policy applies)',
  })
  @Equals(false, { message: 'immediatelyExecute is not available to agents: execute the quote instead' })
  immediatelyExecute?: boolean;

  @StringField({ required: false, maxLength: 1024, description: 'Memo for the transfer' })
  description?: string;

  @StringField({ required: false, maxLength: 80 })
  remittanceInformation?: string;

  @StringField({ required: false, maxLength: 64 })
  purposeOfPayment?: string;
}

/** The reference's FixedFee. */
export class FixedFeeRequest {
  @IntField({ min: 0, max: 9_000_000_000_000_000, description: 'Minor units of `currency`' })
  amount: number;

  @StringField({ pattern: /^[A-Z]{3,5}$/, format: 'currency code', description: 'Must be the sending currency' })
  currency: string;
}

/** The reference's PlatformFeeOverride: this quote's platform fee instead of none. */
export class PlatformFeeOverrideRequest {
  @NestedField(() => FixedFeeRequest)
  platformFixedFee: FixedFeeRequest;

  @IntField({ min: 0, max: 10_000, description: 'Variable platform fee in basis points of the sending amount' })
  platformVariableFeeBps: number;
}

const CURRENCY_CODE = /^[A-Z]{3,5}$/;

/**
 * The reference's QuoteSourceOneOf, as a platform sends it: ACCOUNT (an internal account of the
 * platform's, its own or a customer's) or REALTIME_FUNDING (funds sent from outside, answered with
 * `paymentInstructions`; in the sandbox `POST /sandbox/send` makes them arrive).
 */
export class PlatformQuoteSourceRequest {
  @EnumField(QUOTE_SOURCE_TYPES, {
    description: 'ACCOUNT: an internal account pays; REALTIME_FUNDING: funds sent per the quote’s paymentInstructions',
  })
  sourceType: QuoteSourceType;

  @ApiPropertyOptional({
    pattern: idPattern('InternalAccount'),
    description: "ACCOUNT (required): an internal account of one of the platform's customers, or its own",
    example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000001',
  })
  @ValidateIf((o: PlatformQuoteSourceRequest) => o.sourceType !== 'REALTIME_FUNDING' || o.accountId !== undefined)
  @IsDefined({ message: '$property is required when sourceType is ACCOUNT' })
  @IsString({ message: '$property must be a string' })
  @Matches(new RegExp(idPattern('InternalAccount')), {
    message: '$property must be a InternalAccount id (InternalAccount:<uuid>)',
  })
  accountId?: string;

  @IdField('Customer', {
    required: false,
    description:
      'ACCOUNT: the account’s customer (checked when given); REALTIME_FUNDING: the customer paying (omitted: the platform)',
  })
  customerId?: string;

  @ApiPropertyOptional({ description: 'REALTIME_FUNDING (required): the currency the funds arrive in', example: 'USD' })
  @ValidateIf((o: PlatformQuoteSourceRequest) => o.sourceType === 'REALTIME_FUNDING' || o.currency !== undefined)
  @IsDefined({ message: '$property is required when sourceType is REALTIME_FUNDING' })
  @IsString({ message: '$property must be a string' })
  @Matches(CURRENCY_CODE, { message: '$property must be a currency code' })
  currency?: string;

  @StringField({
    required: false,
    maxLength: 32,
    description: 'REALTIME_FUNDING in a stablecoin: its network (unused by the sandbox)',
  })
  cryptoNetwork?: string;
}

/**
 * The reference's QuoteDestinationOneOf as a platform sends it: ACCOUNT (an internal or external
 * account) or UMA_ADDRESS (a receiver on another UMA participant, looked up first: `lookupId`).
 */
export class PlatformQuoteDestinationRequest {
  @EnumField(['ACCOUNT', 'UMA_ADDRESS'], { description: 'ACCOUNT or UMA_ADDRESS' })
  destinationType: 'ACCOUNT' | 'UMA_ADDRESS';

  @ApiPropertyOptional({
    description: 'ACCOUNT (required): an internal or external account',
    example: 'ExternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123',
  })
  @ValidateIf((o: PlatformQuoteDestinationRequest) => o.destinationType !== 'UMA_ADDRESS' || o.accountId !== undefined)
  @IsDefined({ message: '$property is required when destinationType is ACCOUNT' })
  @IsString({ message: '$property must be a string' })
  @Matches(ACCOUNT_ID, { message: '$property must be an InternalAccount or ExternalAccount id' })
  accountId?: string;

  @EnumField(PAYMENT_RAILS, { required: false })
  paymentRail?: string;

  @ApiPropertyOptional({ description: 'UMA_ADDRESS (required): the receiver', example: '$receiver@uma.domain.com' })
  @ValidateIf((o: PlatformQuoteDestinationRequest) => o.destinationType === 'UMA_ADDRESS' || o.umaAddress !== undefined)
  @IsDefined({ message: '$property is required when destinationType is UMA_ADDRESS' })
  @IsString({ message: '$property must be a string' })
  @Matches(/^\$[^@\s]{1,64}@[^@\s]{1,253}$/, { message: '$property must be an UMA address ($user@domain)' })
  umaAddress?: string;

  @ApiPropertyOptional({ description: 'UMA_ADDRESS: the receiving currency (omitted: the first the receiver offers)' })
  @ValidateIf((o: PlatformQuoteDestinationRequest) => o.currency !== undefined)
  @IsString({ message: '$property must be a string' })
  @Matches(CURRENCY_CODE, { message: '$property must be a currency code' })
  currency?: string;
}

/** The reference's QuoteRequest (POST /quotes). */
export class QuoteRequest {
  @StringField({
    required: false,
    maxLength: 255,
    description: 'The receiver lookup (GET /receiver/uma/{address}): required for UMA_ADDRESS destinations',
  })
  lookupId?: string;

  @NestedField(() => PlatformQuoteSourceRequest)
  source: PlatformQuoteSourceRequest;

  @NestedField(() => PlatformQuoteDestinationRequest)
  destination: PlatformQuoteDestinationRequest;

  @EnumField(LOCK_SIDES, { description: 'Which side `lockedCurrencyAmount` fixes' })
  lockedCurrencySide: LockSide;

  @IntField({ min: 1, max: 9_000_000_000_000_000, description: 'Minor units of the locked side’s currency' })
  lockedCurrencyAmount: number;

  @BoolField({ required: false, description: 'Execute at once (the answer is the executed quote)' })
  immediatelyExecute?: boolean;

  @StringField({ required: false, maxLength: 1024, description: 'Memo for the transfer' })
  description?: string;

  @StringField({ required: false, maxLength: 80 })
  remittanceInformation?: string;

  @StringField({ required: false, maxLength: 64 })
  purposeOfPayment?: string;

  @DocumentIdsField()
  documentIds?: string[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Sender information for the counterparty',
  })
  @IsOptional()
  @IsObject({ message: '$property must be an object' })
  senderCustomerInfo?: Record<string, unknown>;

  @NestedField(() => PlatformFeeOverrideRequest, { required: false })
  platformFeeOverride?: PlatformFeeOverrideRequest;

  @EnumField(SCA_FACTORS, {
    required: false,
    description:
      'The factor of the SCA challenge issued for a customer in an SCA region (default SMS_OTP when the customer has a phone number); ignored for others',
  })
  scaFactor?: ScaFactor;
}

/** The reference's ExecuteQuoteRequest (scaFactor: the challenge's factor is chosen when the quote is created). */
export class ExecuteQuoteRequest {
  @StringField({
    required: false,
    maxLength: 32,
    description: "Ignored: the SCA challenge's factor is chosen at quote creation",
  })
  scaFactor?: string;
}

export class QuoteSourceView {
  @ApiProperty({ enum: QUOTE_SOURCE_TYPES }) sourceType: QuoteSourceType;
  @ApiPropertyOptional({ description: 'ACCOUNT: the paying internal account' }) accountId?: string;
  @ApiPropertyOptional() customerId?: string;
  @ApiPropertyOptional({ description: 'REALTIME_FUNDING: the currency the funds arrive in' }) currency?: string;
}

/** The reference's PaymentInstructions: where to send the funds of a REALTIME_FUNDING quote. */
export class PaymentInstructionsView {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'accountType, paymentRails, account details and the `reference` to quote with the payment',
  })
  accountOrWalletInfo: Record<string, unknown>;
  @ApiPropertyOptional() instructionsNotes?: string;
  @ApiPropertyOptional() isPlatformAccount?: boolean;
}

export class QuoteDestinationView {
  @ApiProperty({ enum: ['ACCOUNT', 'UMA_ADDRESS'] }) destinationType: 'ACCOUNT' | 'UMA_ADDRESS';
  @ApiPropertyOptional({ description: 'ACCOUNT destinations' }) accountId?: string;
  @ApiPropertyOptional({ enum: PAYMENT_RAILS }) paymentRail?: string;
  @ApiPropertyOptional({ description: 'UMA_ADDRESS destinations: the receiver' }) umaAddress?: string;
  @ApiPropertyOptional({ description: 'UMA_ADDRESS destinations: the receiving currency' }) currency?: string;
}

export class RateDetailsView {
  @ApiProperty() counterpartyMultiplier: number;
  @ApiProperty() counterpartyFixedFee: number;
  @ApiProperty() serviceApiMultiplier: number;
  @ApiProperty() serviceApiFixedFee: number;
  @ApiProperty() serviceApiVariableFeeRate: number;
  @ApiProperty() serviceApiVariableFeeAmount: number;
}

/** The reference's Quote, every required member present (`transactionId` included). */
export class QuoteView {
  @ApiProperty({ example: 'Quote:019542f5-b3e7-1d02-0000-000000000006' }) id: string;
  @ApiProperty({ enum: QUOTE_STATUSES }) status: QuoteStatus;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ type: QuoteSourceView }) source: QuoteSourceView;
  @ApiProperty({ type: QuoteDestinationView }) destination: QuoteDestinationView;
  @ApiProperty({ type: CurrencyView }) sendingCurrency: CurrencyView;
  @ApiProperty({ type: CurrencyView }) receivingCurrency: CurrencyView;
  @ApiProperty({ type: 'integer', format: 'int64' }) totalSendingAmount: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) totalReceivingAmount: number;
  @ApiProperty({ description: 'Receiving currency units per sending currency unit' }) exchangeRate: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) feesIncluded: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) platformFeesIncluded: number;
  @ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000005' }) transactionId: string;
  @ApiProperty({ type: RateDetailsView }) rateDetails: RateDetailsView;
  @ApiPropertyOptional() purposeOfPayment?: string;
  @ApiPropertyOptional({
    type: [String],
    example: ['PaymentDocument:019542f5-b3e7-1d02-0000-000000000007'],
    description: 'The payment documents attached to the quote',
  })
  documentIds?: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Present only while `status` is PENDING_AUTHORIZATION: the ScaChallenge to authorize (POST /quotes/{quoteId}/authorize)',
  })
  scaChallenge?: StoredScaChallenge;
  @ApiPropertyOptional({
    type: [PaymentInstructionsView],
    description: 'REALTIME_FUNDING quotes: where to send the funds (the sandbox: POST /sandbox/send)',
  })
  paymentInstructions?: PaymentInstructionsView[];
}

/** The reference's SandboxSendRequest. */
export class SandboxSendRequest {
  @IdField('Quote', { description: 'A REALTIME_FUNDING quote of the platform' })
  quoteId: string;

  @StringField({ pattern: CURRENCY_CODE, format: 'currency code', description: 'Must be the quote’s sending currency' })
  currencyCode: string;

  @IntField({
    required: false,
    min: 1,
    max: 9_000_000_000_000_000,
    description: 'Minor units; omitted: the quote’s totalSendingAmount (any other amount is refused)',
  })
  currencyAmount?: number;
}
