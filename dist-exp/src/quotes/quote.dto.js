var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals } from 'class-validator';
import { BoolField, EnumField, IdField, IntField, NestedField, StringField } from '../common/validation.js';
import { CurrencyView } from '../customers/internal-account.dto.js';
import { LOCK_SIDES, QUOTE_STATUSES } from './quote.entity.js';
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
];
const ACCOUNT_ID = /^(InternalAccount|ExternalAccount):[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** The reference's AccountQuoteSource (an agent funds quotes only from its customer's internal accounts). */
export class QuoteSourceRequest {
    sourceType;
    accountId;
    customerId;
}
__decorate([
    EnumField(['ACCOUNT'], { description: 'Only ACCOUNT: an internal account of the agent’s customer' }),
    __metadata("design:type", String)
], QuoteSourceRequest.prototype, "sourceType", void 0);
__decorate([
    IdField('InternalAccount', { description: 'An internal account of the agent’s customer' }),
    __metadata("design:type", String)
], QuoteSourceRequest.prototype, "accountId", void 0);
__decorate([
    IdField('Customer', { required: false, description: 'The agent’s customer (the only one it may name)' }),
    __metadata("design:type", String)
], QuoteSourceRequest.prototype, "customerId", void 0);
/** The reference's AccountDestination: an internal or external account of the agent's customer. */
export class QuoteDestinationRequest {
    destinationType;
    accountId;
    paymentRail;
}
__decorate([
    EnumField(['ACCOUNT'], { description: 'Only ACCOUNT' }),
    __metadata("design:type", String)
], QuoteDestinationRequest.prototype, "destinationType", void 0);
__decorate([
    StringField({
        pattern: ACCOUNT_ID,
        format: 'InternalAccount or ExternalAccount id',
        description: 'An internal or external account of the agent’s customer',
    }),
    __metadata("design:type", String)
], QuoteDestinationRequest.prototype, "accountId", void 0);
__decorate([
    EnumField(PAYMENT_RAILS, { required: false }),
    __metadata("design:type", String)
], QuoteDestinationRequest.prototype, "paymentRail", void 0);
/** The reference's QuoteRequest, as an agent may send it. */
export class AgentQuoteRequest {
    source;
    destination;
    lockedCurrencySide;
    lockedCurrencyAmount;
    immediatelyExecute;
    description;
    remittanceInformation;
    purposeOfPayment;
}
__decorate([
    NestedField(() => QuoteSourceRequest),
    __metadata("design:type", QuoteSourceRequest)
], AgentQuoteRequest.prototype, "source", void 0);
__decorate([
    NestedField(() => QuoteDestinationRequest),
    __metadata("design:type", QuoteDestinationRequest)
], AgentQuoteRequest.prototype, "destination", void 0);
__decorate([
    EnumField(LOCK_SIDES, { description: 'Which side `lockedCurrencyAmount` fixes' }),
    __metadata("design:type", String)
], AgentQuoteRequest.prototype, "lockedCurrencySide", void 0);
__decorate([
    IntField({ min: 1, max: 9_000_000_000_000_000, description: 'Minor units of the locked side’s currency' }),
    __metadata("design:type", Number)
], AgentQuoteRequest.prototype, "lockedCurrencyAmount", void 0);
__decorate([
    BoolField({
        required: false,
        description: 'Only false: an agent executes through POST /agents/me/quotes/{quoteId}/execute (its policy applies)',
    }),
    Equals(false, { message: 'immediatelyExecute is not available to agents: execute the quote instead' }),
    __metadata("design:type", Boolean)
], AgentQuoteRequest.prototype, "immediatelyExecute", void 0);
__decorate([
    StringField({ required: false, maxLength: 1024, description: 'Memo for the transfer' }),
    __metadata("design:type", String)
], AgentQuoteRequest.prototype, "description", void 0);
__decorate([
    StringField({ required: false, maxLength: 80 }),
    __metadata("design:type", String)
], AgentQuoteRequest.prototype, "remittanceInformation", void 0);
__decorate([
    StringField({ required: false, maxLength: 64 }),
    __metadata("design:type", String)
], AgentQuoteRequest.prototype, "purposeOfPayment", void 0);
export class QuoteSourceView {
    sourceType;
    accountId;
    customerId;
}
__decorate([
    ApiProperty({ enum: ['ACCOUNT'] }),
    __metadata("design:type", String)
], QuoteSourceView.prototype, "sourceType", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], QuoteSourceView.prototype, "accountId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], QuoteSourceView.prototype, "customerId", void 0);
export class QuoteDestinationView {
    destinationType;
    accountId;
    paymentRail;
}
__decorate([
    ApiProperty({ enum: ['ACCOUNT'] }),
    __metadata("design:type", String)
], QuoteDestinationView.prototype, "destinationType", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], QuoteDestinationView.prototype, "accountId", void 0);
__decorate([
    ApiPropertyOptional({ enum: PAYMENT_RAILS }),
    __metadata("design:type", String)
], QuoteDestinationView.prototype, "paymentRail", void 0);
export class RateDetailsView {
    counterpartyMultiplier;
    counterpartyFixedFee;
    serviceApiMultiplier;
    serviceApiFixedFee;
    serviceApiVariableFeeRate;
    serviceApiVariableFeeAmount;
}
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "counterpartyMultiplier", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "counterpartyFixedFee", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "serviceApiMultiplier", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "serviceApiFixedFee", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "serviceApiVariableFeeRate", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], RateDetailsView.prototype, "serviceApiVariableFeeAmount", void 0);
/** The reference's Quote, every required member present (`transactionId` included). */
export class QuoteView {
    id;
    status;
    createdAt;
    expiresAt;
    source;
    destination;
    sendingCurrency;
    receivingCurrency;
    totalSendingAmount;
    totalReceivingAmount;
    exchangeRate;
    feesIncluded;
    platformFeesIncluded;
    transactionId;
    rateDetails;
    purposeOfPayment;
}
__decorate([
    ApiProperty({ example: 'Quote:019542f5-b3e7-1d02-0000-000000000006' }),
    __metadata("design:type", String)
], QuoteView.prototype, "id", void 0);
__decorate([
    ApiProperty({ enum: QUOTE_STATUSES }),
    __metadata("design:type", String)
], QuoteView.prototype, "status", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], QuoteView.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], QuoteView.prototype, "expiresAt", void 0);
__decorate([
    ApiProperty({ type: QuoteSourceView }),
    __metadata("design:type", QuoteSourceView)
], QuoteView.prototype, "source", void 0);
__decorate([
    ApiProperty({ type: QuoteDestinationView }),
    __metadata("design:type", QuoteDestinationView)
], QuoteView.prototype, "destination", void 0);
__decorate([
    ApiProperty({ type: CurrencyView }),
    __metadata("design:type", CurrencyView)
], QuoteView.prototype, "sendingCurrency", void 0);
__decorate([
    ApiProperty({ type: CurrencyView }),
    __metadata("design:type", CurrencyView)
], QuoteView.prototype, "receivingCurrency", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], QuoteView.prototype, "totalSendingAmount", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], QuoteView.prototype, "totalReceivingAmount", void 0);
__decorate([
    ApiProperty({ description: 'Receiving currency units per sending currency unit' }),
    __metadata("design:type", Number)
], QuoteView.prototype, "exchangeRate", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], QuoteView.prototype, "feesIncluded", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], QuoteView.prototype, "platformFeesIncluded", void 0);
__decorate([
    ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000005' }),
    __metadata("design:type", String)
], QuoteView.prototype, "transactionId", void 0);
__decorate([
    ApiProperty({ type: RateDetailsView }),
    __metadata("design:type", RateDetailsView)
], QuoteView.prototype, "rateDetails", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], QuoteView.prototype, "purposeOfPayment", void 0);
//# sourceMappingURL=quote.dto.js.map