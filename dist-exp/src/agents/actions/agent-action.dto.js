var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { PageQuery } from '../../common/pagination.js';
import { DateRangeQuery } from '../../common/time-range.js';
import { EnumField, IdField, StringField } from '../../common/validation.js';
import { AGENT_ACTION_STATUSES } from './agent-action.entity.js';
/** `GET /agents/me/actions` (reference agentListActions). */
export class AgentActionsQuery extends PageQuery {
    status;
}
__decorate([
    EnumField(AGENT_ACTION_STATUSES, { required: false, description: 'Filter by action status' }),
    __metadata("design:type", String)
], AgentActionsQuery.prototype, "status", void 0);
/** `GET /agents/approvals` (reference listAgentApprovals): the platform's pending actions. */
export class AgentApprovalsQuery extends DateRangeQuery {
    agentId;
    customerId;
}
__decorate([
    IdField('Agent', { required: false, description: 'Filter by agent' }),
    __metadata("design:type", String)
], AgentApprovalsQuery.prototype, "agentId", void 0);
__decorate([
    IdField('Customer', { required: false, description: 'Filter by customer' }),
    __metadata("design:type", String)
], AgentApprovalsQuery.prototype, "customerId", void 0);
/** The reference's TransactionStatus. */
export const TRANSACTION_STATUSES = [
    'CREATED',
    'PENDING',
    'PENDING_AUTHORIZATION',
    'PROCESSING',
    'COMPLETED',
    'REJECTED',
    'FAILED',
    'REFUNDED',
    'EXPIRED',
];
/** `GET /agents/me/transactions` (reference agentListTransactions). */
export class AgentTransactionsQuery extends DateRangeQuery {
    accountIdentifier;
    senderAccountIdentifier;
    receiverAccountIdentifier;
    status;
    type;
    reference;
}
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Sender or receiver account id' }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "accountIdentifier", void 0);
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Sender account id' }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "senderAccountIdentifier", void 0);
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Receiver account id' }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "receiverAccountIdentifier", void 0);
__decorate([
    EnumField(TRANSACTION_STATUSES, { required: false }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "status", void 0);
__decorate([
    EnumField(['INCOMING', 'OUTGOING'], { required: false }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "type", void 0);
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Filter by reference (the quote or transaction id)' }),
    __metadata("design:type", String)
], AgentTransactionsQuery.prototype, "reference", void 0);
/** The reference's AgentActionRejectRequest. */
export class AgentActionRejectRequest {
    reason;
}
__decorate([
    StringField({ required: false, maxLength: 1024, description: 'Why; stored on the action as rejectionReason' }),
    __metadata("design:type", String)
], AgentActionRejectRequest.prototype, "reason", void 0);
//# sourceMappingURL=agent-action.dto.js.map