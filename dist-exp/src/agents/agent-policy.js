var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString, Matches, ValidateIf } from 'class-validator';
import { formatId, idPattern, parseId } from '../common/ids.js';
import { isRecord, mergePatch } from '../common/objects.js';
import { EnumField, IdField, IntField, MAX_SAFE_MINOR_UNITS, NestedField, StringField } from '../common/validation.js';
import { EnumListField } from '../customers/customer-fields.js';
import { fieldError } from '../errors/field-error.js';
/**
 * The agent policy, pure: the request shapes and their validation (class-validator DTOs), the
 * spec's defaults, the stored/rendered form, PATCH merging, and the usage counters' UTC resets.
 * No database, no clock of its own ("now" is an argument). Shared by agent management (here) and
 * the policy evaluator of quote execution.
 */
// ---- Enumerations (the reference's) ----------------------------------------------------------
export const AGENT_PERMISSIONS = [
    'VIEW_TRANSACTIONS',
    'CREATE_QUOTES',
    'EXECUTE_QUOTES',
    'MANAGE_EXTERNAL_ACCOUNTS',
];
export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'];
/** Always granted: an agent can always see its own customer's transactions and balances. */
export const ALWAYS_GRANTED = 'VIEW_TRANSACTIONS';
export const DEFAULT_EXECUTION_MODE = 'AUTO';
/** Limits of a transaction count (a PostgreSQL integer). */
export const MAX_TRANSACTION_COUNT = 2147483647;
// ---- Request shapes ---------------------------------------------------------------------------
const CURRENCY = {
    minLength: 3,
    maxLength: 8,
    pattern: /^[A-Z0-9]{3,8}$/,
    format: 'iso4217',
    description: 'ISO 4217 code (or a crypto asset such as USDC)',
    example: 'USD',
};
/** A non-negative amount in minor units of the limits' currency. */
const Amount = (opts) => IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, ...opts });
/** A list of `InternalAccount:<uuid>` ids, or null. */
function AccountIdListField() {
    const pattern = idPattern('InternalAccount');
    return applyDecorators(ValidateIf((_o, v) => v !== undefined && v !== null), IsArray({ message: '$property must be an array or null' }), IsString({ each: true, message: 'each element of $property must be a string' }), Matches(new RegExp(pattern), {
        each: true,
        context: { pattern },
        message: '$property must contain only InternalAccount ids (InternalAccount:<uuid>)',
    }), ApiPropertyOptional({
        type: [String],
        nullable: true,
        description: "Internal accounts of the agent's customer it may use; null: all of them",
    }));
}
export class AgentSpendingLimitsRequest {
    currency;
    perTransactionLimit;
    dailyLimit;
    dailyTransactionLimit;
    monthlyLimit;
}
__decorate([
    StringField({ ...CURRENCY, description: 'Currency every amount limit is denominated in' }),
    __metadata("design:type", String)
], AgentSpendingLimitsRequest.prototype, "currency", void 0);
__decorate([
    Amount({ description: 'Largest amount of one transaction' }),
    __metadata("design:type", Number)
], AgentSpendingLimitsRequest.prototype, "perTransactionLimit", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'Largest total per UTC day; null: none' }),
    __metadata("design:type", Object)
], AgentSpendingLimitsRequest.prototype, "dailyLimit", void 0);
__decorate([
    IntField({
        min: 0,
        max: MAX_TRANSACTION_COUNT,
        required: false,
        nullable: true,
        description: 'Most transactions per UTC day; omitted or null: none',
    }),
    __metadata("design:type", Object)
], AgentSpendingLimitsRequest.prototype, "dailyTransactionLimit", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'Largest total per UTC month; null: none' }),
    __metadata("design:type", Object)
], AgentSpendingLimitsRequest.prototype, "monthlyLimit", void 0);
/** Partial: only the members sent change (null clears a nullable limit). */
export class AgentSpendingLimitsUpdate {
    currency;
    perTransactionLimit;
    dailyLimit;
    dailyTransactionLimit;
    monthlyLimit;
}
__decorate([
    StringField({ ...CURRENCY, required: false, description: 'Recasts every limit into this currency (numbers kept)' }),
    __metadata("design:type", String)
], AgentSpendingLimitsUpdate.prototype, "currency", void 0);
__decorate([
    Amount({ required: false, description: 'Largest amount of one transaction' }),
    __metadata("design:type", Number)
], AgentSpendingLimitsUpdate.prototype, "perTransactionLimit", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'null removes the daily limit' }),
    __metadata("design:type", Object)
], AgentSpendingLimitsUpdate.prototype, "dailyLimit", void 0);
__decorate([
    IntField({ min: 0, max: MAX_TRANSACTION_COUNT, required: false, nullable: true, description: 'null removes it' }),
    __metadata("design:type", Object)
], AgentSpendingLimitsUpdate.prototype, "dailyTransactionLimit", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'null removes the monthly limit' }),
    __metadata("design:type", Object)
], AgentSpendingLimitsUpdate.prototype, "monthlyLimit", void 0);
export class AgentAccountRuleRequest {
    accountId;
    executionMode;
    perTransactionLimit;
}
__decorate([
    IdField('InternalAccount', { description: "An internal account of the agent's customer" }),
    __metadata("design:type", String)
], AgentAccountRuleRequest.prototype, "accountId", void 0);
__decorate([
    EnumField(AGENT_EXECUTION_MODES, { required: false, description: 'Default AUTO' }),
    __metadata("design:type", String)
], AgentAccountRuleRequest.prototype, "executionMode", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'Overrides perTransactionLimit; null inherits' }),
    __metadata("design:type", Object)
], AgentAccountRuleRequest.prototype, "perTransactionLimit", void 0);
export class AgentAccountRestrictionsRequest {
    allowedAccountIds;
    accountRules;
}
__decorate([
    AccountIdListField(),
    __metadata("design:type", Object)
], AgentAccountRestrictionsRequest.prototype, "allowedAccountIds", void 0);
__decorate([
    NestedField(() => AgentAccountRuleRequest, { each: true, required: false, description: 'Per-account overrides' }),
    __metadata("design:type", Array)
], AgentAccountRestrictionsRequest.prototype, "accountRules", void 0);
export class AgentApprovalThresholdsRequest {
    currency;
    amount;
}
__decorate([
    StringField({ ...CURRENCY, required: false, description: 'Required when amount is set' }),
    __metadata("design:type", String)
], AgentApprovalThresholdsRequest.prototype, "currency", void 0);
__decorate([
    Amount({ required: false, nullable: true, description: 'Amounts above it need approval; null: none' }),
    __metadata("design:type", Object)
], AgentApprovalThresholdsRequest.prototype, "amount", void 0);
/** The policy in `POST /agents` (account rules may omit executionMode; defaultExecutionMode may be omitted). */
export class AgentPolicyRequest {
    permissions;
    defaultExecutionMode;
    spendingLimits;
    accountRestrictions;
    approvalThresholds;
}
__decorate([
    EnumListField(AGENT_PERMISSIONS, { required: false }),
    __metadata("design:type", Array)
], AgentPolicyRequest.prototype, "permissions", void 0);
__decorate([
    EnumField(AGENT_EXECUTION_MODES, { required: false, description: 'Default AUTO' }),
    __metadata("design:type", String)
], AgentPolicyRequest.prototype, "defaultExecutionMode", void 0);
__decorate([
    NestedField(() => AgentSpendingLimitsRequest),
    __metadata("design:type", AgentSpendingLimitsRequest)
], AgentPolicyRequest.prototype, "spendingLimits", void 0);
__decorate([
    NestedField(() => AgentAccountRestrictionsRequest, { required: false, nullable: true }),
    __metadata("design:type", Object)
], AgentPolicyRequest.prototype, "accountRestrictions", void 0);
__decorate([
    NestedField(() => AgentApprovalThresholdsRequest, { required: false, nullable: true }),
    __metadata("design:type", Object)
], AgentPolicyRequest.prototype, "approvalThresholds", void 0);
/** `PATCH /agents/{agentId}/policy`: partial; `permissions` replaces the list, objects replace theirs. */
export class AgentPolicyUpdateRequest {
    permissions;
    defaultExecutionMode;
    spendingLimits;
    accountRestrictions;
    approvalThresholds;
}
__decorate([
    EnumListField(AGENT_PERMISSIONS, { required: false }),
    __metadata("design:type", Array)
], AgentPolicyUpdateRequest.prototype, "permissions", void 0);
__decorate([
    EnumField(AGENT_EXECUTION_MODES, { required: false }),
    __metadata("design:type", String)
], AgentPolicyUpdateRequest.prototype, "defaultExecutionMode", void 0);
__decorate([
    NestedField(() => AgentSpendingLimitsUpdate, { required: false }),
    __metadata("design:type", AgentSpendingLimitsUpdate)
], AgentPolicyUpdateRequest.prototype, "spendingLimits", void 0);
__decorate([
    NestedField(() => AgentAccountRestrictionsRequest, { required: false, nullable: true }),
    __metadata("design:type", Object)
], AgentPolicyUpdateRequest.prototype, "accountRestrictions", void 0);
__decorate([
    NestedField(() => AgentApprovalThresholdsRequest, { required: false, nullable: true }),
    __metadata("design:type", Object)
], AgentPolicyUpdateRequest.prototype, "approvalThresholds", void 0);
// ---- Defaults, rendering, merging -------------------------------------------------------------
const isPermission = (v) => AGENT_PERMISSIONS.includes(v);
const isMode = (v) => AGENT_EXECUTION_MODES.includes(v);
const intOrNull = (v) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
/** `VIEW_TRANSACTIONS` first, then the others in the order given, each once. */
export function normalizePermissions(list) {
    const given = Array.isArray(list) ? list.filter(isPermission) : [];
    return [...new Set([ALWAYS_GRANTED, ...given])];
}
/** The canonical id form: `InternalAccount:<lower-case uuid>` (what was validated stays as it is otherwise). */
const canonicalAccountId = (id) => {
    const uuid = parseId('InternalAccount', id);
    return uuid ? formatId('InternalAccount', uuid) : id;
};
/**
 * The policy with the spec's defaults applied, from a validated request or a stored value:
 * `VIEW_TRANSACTIONS` always granted, `defaultExecutionMode` and each rule's `executionMode`
 * `AUTO` when omitted, absent nullable limits rendered as null. What is stored is this form, and
 * rendering re-applies it, so a stored policy always renders with the defaults.
 */
export function renderPolicy(value) {
    const p = isRecord(value) ? value : {};
    const limits = isRecord(p.spendingLimits) ? p.spendingLimits : {};
    const policy = {
        permissions: normalizePermissions(p.permissions),
        defaultExecutionMode: isMode(p.defaultExecutionMode) ? p.defaultExecutionMode : DEFAULT_EXECUTION_MODE,
        spendingLimits: {
            currency: typeof limits.currency === 'string' ? limits.currency : '',
            perTransactionLimit: intOrNull(limits.perTransactionLimit) ?? 0,
            dailyLimit: intOrNull(limits.dailyLimit),
            monthlyLimit: intOrNull(limits.monthlyLimit),
        },
    };
    const dailyCount = intOrNull(limits.dailyTransactionLimit);
    if (dailyCount !== null)
        policy.spendingLimits.dailyTransactionLimit = dailyCount;
    if (isRecord(p.accountRestrictions)) {
        const r = p.accountRestrictions;
        policy.accountRestrictions = {
            allowedAccountIds: Array.isArray(r.allowedAccountIds)
                ? r.allowedAccountIds.filter((id) => typeof id === 'string').map(canonicalAccountId)
                : null,
            accountRules: (Array.isArray(r.accountRules) ? r.accountRules : []).filter(isRecord).map((rule) => ({
                accountId: typeof rule.accountId === 'string' ? canonicalAccountId(rule.accountId) : '',
                executionMode: isMode(rule.executionMode) ? rule.executionMode : DEFAULT_EXECUTION_MODE,
                perTransactionLimit: intOrNull(rule.perTransactionLimit),
            })),
        };
    }
    if (isRecord(p.approvalThresholds)) {
        const t = p.approvalThresholds;
        policy.approvalThresholds = {
            ...(typeof t.currency === 'string' ? { currency: t.currency } : {}),
            amount: intOrNull(t.amount),
        };
    }
    return policy;
}
/**
 * The policy after a PATCH: members sent replace the current ones (`permissions` the whole list,
 * `accountRestrictions` and `approvalThresholds` whole objects, null removes them),
 * `spendingLimits` is merged member by member (null clears a nullable limit).
 */
export function applyPolicyUpdate(current, update) {
    return renderPolicy(mergePatch(current, plain(update), { nested: ['spendingLimits'] }));
}
/** A validated DTO instance as plain JSON (class instances and undefined members dropped). */
function plain(value) {
    return JSON.parse(JSON.stringify(value));
}
/** `path.member`, or `member` at the top level (`path` ''). */
const under = (path, member) => (path ? `${path}.${member}` : member);
/**
 * Rules across members, checked on the policy as it will be stored (so a PATCH cannot break them).
 * `path` prefixes the FieldErrors' fields: `policy` in POST /agents, '' in the policy PATCH.
 */
export function policyRuleErrors(policy, path = 'policy') {
    const errors = [];
    const t = policy.approvalThresholds;
    if (t && t.amount !== null && t.currency === undefined) {
        errors.push(fieldError(under(path, 'approvalThresholds.currency'), 'currency is required when approvalThresholds.amount is set', {
            format: 'iso4217',
        }));
    }
    const seen = new Map();
    policy.accountRestrictions?.accountRules.forEach((rule, i) => {
        const first = seen.get(rule.accountId);
        if (first !== undefined) {
            errors.push(fieldError(under(path, `accountRestrictions.accountRules.${i}.accountId`), `accountRules.${first} already has a rule for ${rule.accountId}`));
        }
        else
            seen.set(rule.accountId, i);
    });
    return errors;
}
/** Every internal account the policy names, with the field it is named in (checked against the customer). */
export function policyAccountReferences(policy, path = 'policy') {
    const r = policy.accountRestrictions;
    if (!r)
        return [];
    return [
        ...(r.allowedAccountIds ?? []).map((accountId, i) => ({
            field: under(path, `accountRestrictions.allowedAccountIds.${i}`),
            accountId,
        })),
        ...r.accountRules.map((rule, i) => ({
            field: under(path, `accountRestrictions.accountRules.${i}.accountId`),
            accountId: rule.accountId,
        })),
    ];
}
/** `YYYY-MM-DD` of the UTC day `days` after `now`'s. */
export function utcDate(now, days = 0) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
    return d.toISOString().slice(0, 10);
}
/** `YYYY-MM` of the UTC month `months` after `now`'s. */
export function utcMonth(now, months = 0) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
    return d.toISOString().slice(0, 7);
}
/** Zero counters that reset tomorrow and next month (UTC). */
export function freshUsage(now) {
    return {
        dailyTransactionCount: 0,
        dailySpend: 0,
        monthlySpend: 0,
        dailyResetDate: utcDate(now, 1),
        monthlyResetMonth: utcMonth(now, 1),
    };
}
/**
 * The counters as of `now`: once the UTC date reaches `dailyResetDate` the daily counters are 0
 * (and reset next tomorrow), once the UTC month reaches `monthlyResetMonth` the monthly one is.
 * Stored counters are reset lazily: read them through this, and write back what it returns.
 */
export function currentUsage(stored, now) {
    const fresh = freshUsage(now);
    const dayPassed = utcDate(now) >= stored.dailyResetDate;
    const monthPassed = utcMonth(now) >= stored.monthlyResetMonth;
    return {
        dailyTransactionCount: dayPassed ? 0 : stored.dailyTransactionCount,
        dailySpend: dayPassed ? 0 : stored.dailySpend,
        monthlySpend: monthPassed ? 0 : stored.monthlySpend,
        dailyResetDate: dayPassed ? fresh.dailyResetDate : stored.dailyResetDate,
        monthlyResetMonth: monthPassed ? fresh.monthlyResetMonth : stored.monthlyResetMonth,
    };
}
//# sourceMappingURL=agent-policy.js.map