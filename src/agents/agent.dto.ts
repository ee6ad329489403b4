import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { TimeRangeQuery } from '../common/time-range.js';
import { BoolField, IdField, NestedField, StringField } from '../common/validation.js';
import { BoolQuery } from '../customers/customer-fields.js';
import { ListCustomerInternalAccountsQuery } from '../customers/internal-account.dto.js';
import { AGENT_EXECUTION_MODES, AGENT_PERMISSIONS, AgentPolicyRequest } from './agent-policy.js';
import type {
  AgentAccountRestrictions,
  AgentApprovalThresholds,
  AgentExecutionMode,
  AgentPermission,
  AgentPolicy,
  AgentSpendingLimits,
  AgentUsage,
} from './agent-policy.js';

// ---- Requests ----------------------------------------------------------------------------------

export class AgentCreateRequest {
  @StringField({
    minLength: 1,
    maxLength: 255,
    description: 'Human-readable name',
    example: 'Payroll Automation Agent',
  })
  name: string;

  @IdField('Customer', { description: 'The customer the agent acts for' })
  customerId: string;

  @NestedField(() => AgentPolicyRequest, { description: 'The policy; see docs/agents.md for the defaults' })
  policy: AgentPolicyRequest;
}

/** At least one member. */
export class AgentUpdateRequest {
  @StringField({ required: false, minLength: 1, maxLength: 255, description: 'New name' })
  name?: string;

  @BoolField({ required: false, description: 'true pauses the agent (it can read, not initiate); false resumes it' })
  isPaused?: boolean;
}

export class ListAgentsQuery extends TimeRangeQuery {
  @IdField('Customer', { required: false, description: 'Agents of this customer' })
  customerId?: string;

  @BoolQuery('Filter by paused state')
  isPaused?: boolean;

  @BoolQuery('Filter by connection state (a device code was redeemed)')
  isConnected?: boolean;
}

/** `GET /agents/me/internal-accounts`: the customer is the agent's own. */
export class AgentInternalAccountsQuery extends OmitType(ListCustomerInternalAccountsQuery, ['customerId'] as const) {}

// ---- Responses (documentation of what renderAgent and the device-code routes answer) -----------

class AgentSpendingLimitsView implements AgentSpendingLimits {
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 50000 }) perTransactionLimit: number;
  @ApiProperty({ nullable: true, type: Number, example: 500000 }) dailyLimit: number | null;
  @ApiPropertyOptional({ example: 10 }) dailyTransactionLimit?: number;
  @ApiProperty({ nullable: true, type: Number, example: 5000000 }) monthlyLimit: number | null;
}

class AgentAccountRuleView {
  @ApiProperty({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000001' }) accountId: string;
  @ApiProperty({ enum: AGENT_EXECUTION_MODES }) executionMode: AgentExecutionMode;
  @ApiProperty({ nullable: true, type: Number }) perTransactionLimit: number | null;
}

class AgentAccountRestrictionsView implements AgentAccountRestrictions {
  @ApiProperty({ type: [String], nullable: true }) allowedAccountIds: string[] | null;
  @ApiProperty({ type: [AgentAccountRuleView] }) accountRules: AgentAccountRuleView[];
}

class AgentApprovalThresholdsView implements AgentApprovalThresholds {
  @ApiPropertyOptional({ example: 'USD' }) currency?: string;
  @ApiProperty({ nullable: true, type: Number, example: 100000 }) amount: number | null;
}

export class AgentPolicyView implements AgentPolicy {
  @ApiProperty({ enum: AGENT_PERMISSIONS, isArray: true, description: 'VIEW_TRANSACTIONS is always granted' })
  permissions: AgentPermission[];
  @ApiProperty({ enum: AGENT_EXECUTION_MODES }) defaultExecutionMode: AgentExecutionMode;
  @ApiProperty({ type: AgentSpendingLimitsView }) spendingLimits: AgentSpendingLimitsView;
  @ApiPropertyOptional({ type: AgentAccountRestrictionsView }) accountRestrictions?: AgentAccountRestrictionsView;
  @ApiPropertyOptional({ type: AgentApprovalThresholdsView }) approvalThresholds?: AgentApprovalThresholdsView;
}

export class AgentUsageView implements AgentUsage {
  @ApiProperty({ example: 3 }) dailyTransactionCount: number;
  @ApiProperty({ example: 150000 }) dailySpend: number;
  @ApiProperty({ example: 750000 }) monthlySpend: number;
  @ApiProperty({ format: 'date', example: '2025-07-22', description: 'UTC date the daily counters reset' })
  dailyResetDate: string;
  @ApiProperty({ example: '2025-08', description: 'UTC month (YYYY-MM) the monthly counter resets' })
  monthlyResetMonth: string;
}

export class Agent {
  @ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty({ example: 'Payroll Automation Agent' }) name: string;
  @ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }) customerId: string;
  @ApiProperty() isPaused: boolean;
  @ApiProperty() isConnected: boolean;
  @ApiProperty({ type: AgentPolicyView }) policy: AgentPolicy;
  @ApiProperty({ type: AgentUsageView }) usage: AgentUsage;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class AgentDeviceCode {
  @ApiProperty({ example: 'GRID-AGENT-X7K9-M2P4', description: 'Shown once; stored only as a hash' }) code: string;
  @ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }) agentId: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty() redeemed: boolean;
}

export class AgentCreateResponse {
  @ApiProperty({ type: Agent }) agent: Agent;
  @ApiProperty({ type: AgentDeviceCode }) deviceCode: AgentDeviceCode;
}

export class AgentDeviceCodeStatusResponse {
  @ApiProperty({ example: 'GRID-AGENT-X7K9-M2P4' }) code: string;
  @ApiProperty() redeemed: boolean;
}

export class AgentDeviceCodeRedeemResponse {
  @ApiProperty({ example: 'Agent:019542f5-b3e7-1d02-0000-000000000001' }) agentId: string;
  @ApiProperty({ example: 'Payroll Automation Agent' }) agentName: string;
  @ApiProperty({
    example: 'gat_ed0ad25881e234cc28fb2dec0a4fe64e4172a3b9',
    description: 'Bearer token for every agent call (`Authorization: Bearer <accessToken>`); shown once',
  })
  accessToken: string;
  @ApiProperty({ type: AgentPolicyView }) policy: AgentPolicy;
}
