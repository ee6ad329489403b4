var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { TimeRangeQuery } from '../common/time-range.js';
import { BoolField, IdField, NestedField, StringField } from '../common/validation.js';
import { BoolQuery } from '../customers/customer-fields.js';
import { ListCustomerInternalAccountsQuery } from '../customers/internal-account.dto.js';
import { AGENT_EXECUTION_MODES, AGENT_PERMISSIONS, AgentPolicyRequest } from './agent-policy.js';
// ---- Requests ----------------------------------------------------------------------------------
export class AgentCreateRequest {
    name;
    customerId;
    policy;
}
__decorate([
    StringField({
        minLength: 1,
        maxLength: 255,
        description: 'Human-readable name',
        example: 'Payroll Automation Agent',
    }),
    __metadata("design:type", String)
], AgentCreateRequest.prototype, "name", void 0);
__decorate([
    IdField('Customer', { description: 'The customer the agent acts for' }),
    __metadata("design:type", String)
], AgentCreateRequest.prototype, "customerId", void 0);
__decorate([
    NestedField(() => AgentPolicyRequest, { description: 'The policy; see the README for the defaults' }),
    __metadata("design:type", AgentPolicyRequest)
], AgentCreateRequest.prototype, "policy", void 0);
/** At least one member. */
export class AgentUpdateRequest {
    name;
    isPaused;
}
__decorate([
    StringField({ required: false, minLength: 1, maxLength: 255, description: 'New name' }),
    __metadata("design:type", String)
], AgentUpdateRequest.prototype, "name", void 0);
__decorate([
    BoolField({ required: false, description: 'true pauses the agent (it can read, not initiate); false resumes it' }),
    __metadata("design:type", Boolean)
], AgentUpdateRequest.prototype, "isPaused", void 0);
export class ListAgentsQuery extends TimeRangeQuery {
    customerId;
    isPaused;
    isConnected;
}
__decorate([
    IdField('Customer', { required: false, description: 'Agents of this customer' }),
    __metadata("design:type", String)
], ListAgentsQuery.prototype, "customerId", void 0);
__decorate([
    BoolQuery('Filter by paused state'),
    __metadata("design:type", Boolean)
], ListAgentsQuery.prototype, "isPaused", void 0);
__decorate([
    BoolQuery('Filter by connection state (a device code was redeemed)'),
    __metadata("design:type", Boolean)
], ListAgentsQuery.prototype, "isConnected", void 0);
/** `GET /agents/me/internal-accounts`: the customer is the agent's own. */
export class AgentInternalAccountsQuery extends OmitType(ListCustomerInternalAccountsQuery, ['customerId']) {
}
// ---- Responses (documentation of what renderAgent and the device-code routes answer) -----------
class AgentSpendingLimitsView {
    currency;
    perTransactionLimit;
    dailyLimit;
    dailyTransactionLimit;
    monthlyLimit;
}
__decorate([
    ApiProperty({ example: 'USD' }),
    __metadata("design:type", String)
], AgentSpendingLimitsView.prototype, "currency", void 0);
__decorate([
    ApiProperty({ example: 50000 }),
    __metadata("design:type", Number)
], AgentSpendingLimitsView.prototype, "perTransactionLimit", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number, example: 500000 }),
    __metadata("design:type", Object)
], AgentSpendingLimitsView.prototype, "dailyLimit", void 0);
__decorate([
    ApiPropertyOptional({ example: 10 }),
    __metadata("design:type", Number)
], AgentSpendingLimitsView.prototype, "dailyTransactionLimit", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number, example: 5000000 }),
    __metadata("design:type", Object)
], AgentSpendingLimitsView.prototype, "monthlyLimit", void 0);
class AgentAccountRuleView {
    accountId;
    executionMode;
    perTransactionLimit;
}
__decorate([
    ApiProperty({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], AgentAccountRuleView.prototype, "accountId", void 0);
__decorate([
    ApiProperty({ enum: AGENT_EXECUTION_MODES }),
    __metadata("design:type", String)
], AgentAccountRuleView.prototype, "executionMode", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], AgentAccountRuleView.prototype, "perTransactionLimit", void 0);
class AgentAccountRestrictionsView {
    allowedAccountIds;
    accountRules;
}
__decorate([
    ApiProperty({ type: [String], nullable: true }),
    __metadata("design:type", Object)
], AgentAccountRestrictionsView.prototype, "allowedAccountIds", void 0);
__decorate([
    ApiProperty({ type: [AgentAccountRuleView] }),
    __metadata("design:type", Array)
], AgentAccountRestrictionsView.prototype, "accountRules", void 0);
class AgentApprovalThresholdsView {
    currency;
    amount;
}
__decorate([
    ApiPropertyOptional({ example: 'USD' }),
    __metadata("design:type", String)
], AgentApprovalThresholdsView.prototype, "currency", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number, example: 100000 }),
    __metadata("design:type", Object)
], AgentApprovalThresholdsView.prototype, "amount", void 0);
export class AgentPolicyView {
    permissions;
    defaultExecutionMode;
    spendingLimits;
    accountRestrictions;
    approvalThresholds;
}
__decorate([
    ApiProperty({ enum: AGENT_PERMISSIONS, isArray: true, description: 'VIEW_TRANSACTIONS is always granted' }),
    __metadata("design:type", Array)
], AgentPolicyView.prototype, "permissions", void 0);
__decorate([
    ApiProperty({ enum: AGENT_EXECUTION_MODES }),
    __metadata("design:type", String)
], AgentPolicyView.prototype, "defaultExecutionMode", void 0);
__decorate([
    ApiProperty({ type: AgentSpendingLimitsView }),
    __metadata("design:type", AgentSpendingLimitsView)
], AgentPolicyView.prototype, "spendingLimits", void 0);
__decorate([
    ApiPropertyOptional({ type: AgentAccountRestrictionsView }),
    __metadata("design:type", AgentAccountRestrictionsView)
], AgentPolicyView.prototype, "accountRestrictions", void 0);
__decorate([
    ApiPropertyOptional({ type: AgentApprovalThresholdsView }),
    __metadata("design:type", AgentApprovalThresholdsView)
], AgentPolicyView.prototype, "approvalThresholds", void 0);
export class AgentUsageView {
    dailyTransactionCount;
    dailySpend;
    monthlySpend;
    dailyResetDate;
    monthlyResetMonth;
}
__decorate([
    ApiProperty({ example: 3 }),
    __metadata("design:type", Number)
], AgentUsageView.prototype, "dailyTransactionCount", void 0);
__decorate([
    ApiProperty({ example: 150000 }),
    __metadata("design:type", Number)
], AgentUsageView.prototype, "dailySpend", void 0);
__decorate([
    ApiProperty({ example: 750000 }),
    __metadata("design:type", Number)
], AgentUsageView.prototype, "monthlySpend", void 0);
__decorate([
    ApiProperty({ format: 'date', example: '2025-07-22', description: 'UTC date the daily counters reset' }),
    __metadata("design:type", String)
], AgentUsageView.prototype, "dailyResetDate", void 0);
__decorate([
    ApiProperty({ example: '2025-08', description: 'UTC month (YYYY-MM) the monthly counter resets' }),
    __metadata("design:type", String)
], AgentUsageView.prototype, "monthlyResetMonth", void 0);
export class Agent {
    id;
    name;
    customerId;
    isPaused;
    isConnected;
    policy;
    usage;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], Agent.prototype, "id", void 0);
__decorate([
    ApiProperty({ example: 'Payroll Automation Agent' }),
    __metadata("design:type", String)
], Agent.prototype, "name", void 0);
__decorate([
    ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], Agent.prototype, "customerId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], Agent.prototype, "isPaused", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], Agent.prototype, "isConnected", void 0);
__decorate([
    ApiProperty({ type: AgentPolicyView }),
    __metadata("design:type", Object)
], Agent.prototype, "policy", void 0);
__decorate([
    ApiProperty({ type: AgentUsageView }),
    __metadata("design:type", Object)
], Agent.prototype, "usage", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], Agent.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], Agent.prototype, "updatedAt", void 0);
export class AgentDeviceCode {
    code;
    agentId;
    expiresAt;
    redeemed;
}
__decorate([
    ApiProperty({ example: 'GRID-AGENT-X7K9-M2P4', description: 'Shown once; stored only as a hash' }),
    __metadata("design:type", String)
], AgentDeviceCode.prototype, "code", void 0);
__decorate([
    ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], AgentDeviceCode.prototype, "agentId", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], AgentDeviceCode.prototype, "expiresAt", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], AgentDeviceCode.prototype, "redeemed", void 0);
export class AgentCreateResponse {
    agent;
    deviceCode;
}
__decorate([
    ApiProperty({ type: Agent }),
    __metadata("design:type", Agent)
], AgentCreateResponse.prototype, "agent", void 0);
__decorate([
    ApiProperty({ type: AgentDeviceCode }),
    __metadata("design:type", AgentDeviceCode)
], AgentCreateResponse.prototype, "deviceCode", void 0);
export class AgentDeviceCodeStatusResponse {
    code;
    redeemed;
}
__decorate([
    ApiProperty({ example: 'GRID-AGENT-X7K9-M2P4' }),
    __metadata("design:type", String)
], AgentDeviceCodeStatusResponse.prototype, "code", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], AgentDeviceCodeStatusResponse.prototype, "redeemed", void 0);
export class AgentDeviceCodeRedeemResponse {
    agentId;
    agentName;
    accessToken;
    policy;
}
__decorate([
    ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], AgentDeviceCodeRedeemResponse.prototype, "agentId", void 0);
__decorate([
    ApiProperty({ example: 'Payroll Automation Agent' }),
    __metadata("design:type", String)
], AgentDeviceCodeRedeemResponse.prototype, "agentName", void 0);
__decorate([
    ApiProperty({
        example: 'gat_ed0ad25881e234cc28fb2dec0a4fe64e4172a3b9',
        description: 'Bearer token for every agent call (`Authorization: Bearer <accessToken>`); shown once',
    }),
    __metadata("design:type", String)
], AgentDeviceCodeRedeemResponse.prototype, "accessToken", void 0);
__decorate([
    ApiProperty({ type: AgentPolicyView }),
    __metadata("design:type", Object)
], AgentDeviceCodeRedeemResponse.prototype, "policy", void 0);
//# sourceMappingURL=agent.dto.js.map