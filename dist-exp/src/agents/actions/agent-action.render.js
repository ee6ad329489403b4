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
import { formatId } from '../../common/ids.js';
import { OutgoingTransactionView, renderOutgoingTransaction } from '../../quotes/outgoing-transaction.render.js';
import { QuoteView } from '../../quotes/quote.dto.js';
import { renderQuote } from '../../quotes/quote.render.js';
import { AGENT_ACTION_STATUSES, AGENT_ACTION_TYPES } from './agent-action.entity.js';
/** The spec's AgentAction. */
export class AgentActionView {
    id;
    agentId;
    customerId;
    platformCustomerId;
    status;
    type;
    quote;
    transaction;
    rejectionReason;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ example: 'AgentAction:019542f5-b3e7-1d02-0000-000000000099' }),
    __metadata("design:type", String)
], AgentActionView.prototype, "id", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], AgentActionView.prototype, "agentId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], AgentActionView.prototype, "customerId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], AgentActionView.prototype, "platformCustomerId", void 0);
__decorate([
    ApiProperty({ enum: AGENT_ACTION_STATUSES }),
    __metadata("design:type", String)
], AgentActionView.prototype, "status", void 0);
__decorate([
    ApiProperty({ enum: AGENT_ACTION_TYPES }),
    __metadata("design:type", String)
], AgentActionView.prototype, "type", void 0);
__decorate([
    ApiProperty({ type: QuoteView }),
    __metadata("design:type", QuoteView)
], AgentActionView.prototype, "quote", void 0);
__decorate([
    ApiPropertyOptional({
        type: OutgoingTransactionView,
        description: 'Once approved (APPROVED, or FAILED with its failureReason); absent while PENDING_APPROVAL or REJECTED',
    }),
    __metadata("design:type", OutgoingTransactionView)
], AgentActionView.prototype, "transaction", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Only when REJECTED with a reason' }),
    __metadata("design:type", String)
], AgentActionView.prototype, "rejectionReason", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], AgentActionView.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], AgentActionView.prototype, "updatedAt", void 0);
/**
 * The spec's rules: `transaction` never while PENDING_APPROVAL or REJECTED (nothing was executed),
 * `rejectionReason` only when REJECTED with a reason.
 */
export function renderAgentAction(parts, now) {
    const { action, quote, transaction, platformCustomerId } = parts;
    const executed = action.status === 'APPROVED' || action.status === 'FAILED';
    return {
        id: formatId('AgentAction', action.id),
        agentId: formatId('Agent', action.agentId),
        customerId: formatId('Customer', action.customerId),
        platformCustomerId,
        status: action.status,
        type: action.type,
        quote: renderQuote(quote, now),
        ...(executed && transaction ? { transaction: renderOutgoingTransaction(transaction, platformCustomerId) } : {}),
        ...(action.status === 'REJECTED' && action.rejectionReason !== null
            ? { rejectionReason: action.rejectionReason }
            : {}),
        createdAt: action.createdAt.toISOString(),
        updatedAt: action.updatedAt.toISOString(),
    };
}
//# sourceMappingURL=agent-action.render.js.map