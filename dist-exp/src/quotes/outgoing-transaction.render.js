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
import { formatId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import { CurrencyAmount } from '../customers/internal-account.dto.js';
import { RateDetailsView } from './quote.dto.js';
export class TransactionEndpointView {
    sourceType;
    destinationType;
    accountId;
    currency;
}
__decorate([
    ApiPropertyOptional({ enum: ['ACCOUNT'] }),
    __metadata("design:type", String)
], TransactionEndpointView.prototype, "sourceType", void 0);
__decorate([
    ApiPropertyOptional({ enum: ['ACCOUNT'] }),
    __metadata("design:type", String)
], TransactionEndpointView.prototype, "destinationType", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], TransactionEndpointView.prototype, "accountId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], TransactionEndpointView.prototype, "currency", void 0);
/** The reference's OutgoingTransaction (TransactionOneOf), as an agent's execution records it. */
export class OutgoingTransactionView {
    id;
    status;
    type;
    direction;
    source;
    destination;
    customerId;
    platformCustomerId;
    agentId;
    settledAt;
    createdAt;
    updatedAt;
    description;
    sentAmount;
    receivedAmount;
    exchangeRate;
    quoteId;
    fees;
    platformFees;
    rateDetails;
    failureReason;
    paymentRail;
    railSelectionMode;
}
__decorate([
    ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000004' }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "id", void 0);
__decorate([
    ApiProperty({ enum: ['COMPLETED', 'FAILED'] }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "status", void 0);
__decorate([
    ApiProperty({ enum: ['OUTGOING'] }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "type", void 0);
__decorate([
    ApiProperty({ enum: ['DEBIT'] }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "direction", void 0);
__decorate([
    ApiProperty({ type: TransactionEndpointView }),
    __metadata("design:type", TransactionEndpointView)
], OutgoingTransactionView.prototype, "source", void 0);
__decorate([
    ApiProperty({ type: TransactionEndpointView }),
    __metadata("design:type", TransactionEndpointView)
], OutgoingTransactionView.prototype, "destination", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "customerId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "platformCustomerId", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "agentId", void 0);
__decorate([
    ApiPropertyOptional({ format: 'date-time' }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "settledAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "updatedAt", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "description", void 0);
__decorate([
    ApiProperty({ type: CurrencyAmount }),
    __metadata("design:type", CurrencyAmount)
], OutgoingTransactionView.prototype, "sentAmount", void 0);
__decorate([
    ApiProperty({ type: CurrencyAmount }),
    __metadata("design:type", CurrencyAmount)
], OutgoingTransactionView.prototype, "receivedAmount", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], OutgoingTransactionView.prototype, "exchangeRate", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "quoteId", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], OutgoingTransactionView.prototype, "fees", void 0);
__decorate([
    ApiProperty({ type: 'integer', format: 'int64' }),
    __metadata("design:type", Number)
], OutgoingTransactionView.prototype, "platformFees", void 0);
__decorate([
    ApiProperty({ type: RateDetailsView }),
    __metadata("design:type", RateDetailsView)
], OutgoingTransactionView.prototype, "rateDetails", void 0);
__decorate([
    ApiPropertyOptional({ enum: ['QUOTE_EXPIRED', 'QUOTE_EXECUTION_FAILED', 'LIMIT_EXCEEDED'] }),
    __metadata("design:type", String)
], OutgoingTransactionView.prototype, "failureReason", void 0);
__decorate([
    ApiProperty({ nullable: true, type: String }),
    __metadata("design:type", Object)
], OutgoingTransactionView.prototype, "paymentRail", void 0);
__decorate([
    ApiProperty({ nullable: true, enum: ['MANUAL'] }),
    __metadata("design:type", Object)
], OutgoingTransactionView.prototype, "railSelectionMode", void 0);
export function renderOutgoingTransaction(row, platformCustomerId) {
    return {
        id: formatId('Transaction', row.id),
        status: row.status,
        type: 'OUTGOING',
        direction: 'DEBIT',
        source: {
            sourceType: 'ACCOUNT',
            accountId: formatId('InternalAccount', row.sourceAccountId),
            currency: row.sendingCurrency,
        },
        destination: {
            destinationType: 'ACCOUNT',
            accountId: formatId(row.destinationKind, row.destinationAccountId),
            currency: row.receivingCurrency,
        },
        customerId: formatId('Customer', row.customerId),
        platformCustomerId,
        ...(row.agentId !== null ? { agentId: formatId('Agent', row.agentId) } : {}),
        ...(row.settledAt !== null ? { settledAt: row.settledAt.toISOString() } : {}),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        ...(row.description !== null ? { description: row.description } : {}),
        sentAmount: { amount: Number(row.sentAmount), currency: currencyInfo(row.sendingCurrency) },
        receivedAmount: { amount: Number(row.receivedAmount), currency: currencyInfo(row.receivingCurrency) },
        exchangeRate: row.exchangeRate,
        quoteId: formatId('Quote', row.quoteId),
        fees: Number(row.fees),
        platformFees: 0,
        rateDetails: row.rateDetails,
        ...(row.failureReason !== null ? { failureReason: row.failureReason } : {}),
        paymentRail: row.paymentRail,
        railSelectionMode: row.paymentRail !== null ? 'MANUAL' : null,
    };
}
//# sourceMappingURL=outgoing-transaction.render.js.map