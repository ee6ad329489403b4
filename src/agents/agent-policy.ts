import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString, Matches, ValidateIf } from 'class-validator';
import { formatId, idPattern, parseId } from '../common/ids.js';
import { isRecord, mergePatch } from '../common/objects.js';
import { EnumField, IdField, IntField, MAX_SAFE_MINOR_UNITS, NestedField, StringField } from '../common/validation.js';
import { EnumListField } from '../customers/customer-fields.js';
import { fieldError, type FieldError } from '../errors/field-error.js';

/**
 * The agent policy, pure: the request shapes and their validation (class-validator DTOs), the
 * spec's defaults, the stored/rendered form, PATCH merging, and the usage counters' UTC resets.
 * No database, no clock of its own ("now" is an argument). Shared by agent management (here) and
 * the policy evaluator of quote execution.
 */

// ---- Enumerations (the reference's) ----------------------------------------------------------

export const AGENT_PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  // The reference of 2026-08-21's: same-currency transfers (POST /agents/me/transfer-in, /transfer-out).
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];

export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type AgentExecutionMode = (typeof AGENT_EXECUTION_MODES)[number];

/** Always granted: an agent can always see its own customer's transactions and balances. */
export const ALWAYS_GRANTED: AgentPermission = 'VIEW_TRANSACTIONS';
export const DEFAULT_EXECUTION_MODE: AgentExecutionMode = 'AUTO';

/** Limits of a transaction count (a PostgreSQL integer). */
export const MAX_TRANSACTION_COUNT = 2147483647;

// ---- The stored and rendered policy (the reference's AgentPolicy, defaults applied) ----------

export interface AgentSpendingLimits {
  currency: string;
  perTransactionLimit: number;
  /** null: no daily amount limit. */
  dailyLimit: number | null;
  /** Absent: no limit on the number of transactions per day. */
  dailyTransactionLimit?: number;
  /** null: no monthly amount limit. */
  monthlyLimit: number | null;
}

export interface AgentAccountRule {
  /** `InternalAccount:<uuid>`, an internal account of the agent's customer. */
  accountId: string;
  executionMode: AgentExecutionMode;
  /** null: the spending limits' perTransactionLimit applies. */
  perTransactionLimit: number | null;
}

export interface AgentAccountRestrictions {
  /** null: every internal account of the customer. */
  allowedAccountIds: string[] | null;
  accountRules: AgentAccountRule[];
}

export interface AgentApprovalThresholds {
  /** Required when `amount` is set. */
  currency?: string;
  /** null: no threshold. Amounts strictly above it need approval. */
  amount: number | null;
}

export interface AgentPolicy {
  /** `VIEW_TRANSACTIONS` always first; no repeats. */
  permissions: AgentPermission[];
  defaultExecutionMode: AgentExecutionMode;
  spendingLimits: AgentSpendingLimits;
  accountRestrictions?: AgentAccountRestrictions;
  approvalThresholds?: AgentApprovalThresholds;
}

// ---- Request shapes ---------------------------------------------------------------------------

const CURRENCY = {
  minLength: 3,
  maxLength: 8,
  pattern: /^[A-Z0-9]{3,8}$/,
  format: 'iso4217',
  description: 'ISO 4217 code (or a crypto asset such as USDC)',
  example: 'USD',
} as const;

/** A non-negative amount in minor units of the limits' currency. */
const Amount = (opts: { required?: boolean; nullable?: boolean; description: string }) =>
  IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, ...opts });

/** A list of `InternalAccount:<uuid>` ids, or null. */
function AccountIdListField(): PropertyDecorator {
  const pattern = idPattern('InternalAccount');
  return applyDecorators(
    ValidateIf((_o, v) => v !== undefined && v !== null),
    IsArray({ message: '$property must be an array or null' }),
    IsString({ each: true, message: 'each element of $property must be a string' }),
    Matches(new RegExp(pattern), {
      each: true,
      context: { pattern },
      message: '$property must contain only InternalAccount ids (InternalAccount:<uuid>)',
    }),
    ApiPropertyOptional({
      type: [String],
      nullable: true,
      description: "Internal accounts of the agent's customer it may use; null: all of them",
    }),
  );
}

export class AgentSpendingLimitsRequest {
  @StringField({ ...CURRENCY, description: 'Currency every amount limit is denominated in' })
  currency: string;

  @Amount({ description: 'Largest amount of one transaction' })
  perTransactionLimit: number;

  @Amount({ required: false, nullable: true, description: 'Largest total per UTC day; null: none' })
  dailyLimit?: number | null;

  @IntField({
    min: 0,
    max: MAX_TRANSACTION_COUNT,
    required: false,
    nullable: true,
    description: 'Most transactions per UTC day; omitted or null: none',
  })
  dailyTransactionLimit?: number | null;

  @Amount({ required: false, nullable: true, description: 'Largest total per UTC month; null: none' })
  monthlyLimit?: number | null;
}

/** Partial: only the members sent change (null clears a nullable limit). */
export class AgentSpendingLimitsUpdate {
  @StringField({ ...CURRENCY, required: false, description: 'Recasts every limit into this currency (numbers kept)' })
  currency?: string;

  @Amount({ required: false, description: 'Largest amount of one transaction' })
  perTransactionLimit?: number;

  @Amount({ required: false, nullable: true, description: 'null removes the daily limit' })
  dailyLimit?: number | null;

  @IntField({ min: 0, max: MAX_TRANSACTION_COUNT, required: false, nullable: true, description: 'null removes it' })
  dailyTransactionLimit?: number | null;

  @Amount({ required: false, nullable: true, description: 'null removes the monthly limit' })
  monthlyLimit?: number | null;
}

export class AgentAccountRuleRequest {
  @IdField('InternalAccount', { description: "An internal account of the agent's customer" })
  accountId: string;

  @EnumField(AGENT_EXECUTION_MODES, { required: false, description: 'Default AUTO' })
  executionMode?: AgentExecutionMode;

  @Amount({ required: false, nullable: true, description: 'Overrides perTransactionLimit; null inherits' })
  perTransactionLimit?: number | null;
}

export class AgentAccountRestrictionsRequest {
  @AccountIdListField()
  allowedAccountIds?: string[] | null;

  @NestedField(() => AgentAccountRuleRequest, { each: true, required: false, description: 'Per-account overrides' })
  accountRules?: AgentAccountRuleRequest[];
}

export class AgentApprovalThresholdsRequest {
  @StringField({ ...CURRENCY, required: false, description: 'Required when amount is set' })
  currency?: string;

  @Amount({ required: false, nullable: true, description: 'Amounts above it need approval; null: none' })
  amount?: number | null;
}

/** The policy in `POST /agents` (account rules may omit executionMode; defaultExecutionMode may be omitted). */
export class AgentPolicyRequest {
  @EnumListField(AGENT_PERMISSIONS, { required: false })
  permissions?: AgentPermission[];

  @EnumField(AGENT_EXECUTION_MODES, { required: false, description: 'Default AUTO' })
  defaultExecutionMode?: AgentExecutionMode;

  @NestedField(() => AgentSpendingLimitsRequest)
  spendingLimits: AgentSpendingLimitsRequest;

  @NestedField(() => AgentAccountRestrictionsRequest, { required: false, nullable: true })
  accountRestrictions?: AgentAccountRestrictionsRequest | null;

  @NestedField(() => AgentApprovalThresholdsRequest, { required: false, nullable: true })
  approvalThresholds?: AgentApprovalThresholdsRequest | null;
}

/** `PATCH /agents/{agentId}/policy`: partial; `permissions` replaces the list, objects replace theirs. */
export class AgentPolicyUpdateRequest {
  @EnumListField(AGENT_PERMISSIONS, { required: false })
  permissions?: AgentPermission[];

  @EnumField(AGENT_EXECUTION_MODES, { required: false })
  defaultExecutionMode?: AgentExecutionMode;

  @NestedField(() => AgentSpendingLimitsUpdate, { required: false })
  spendingLimits?: AgentSpendingLimitsUpdate;

  @NestedField(() => AgentAccountRestrictionsRequest, { required: false, nullable: true })
  accountRestrictions?: AgentAccountRestrictionsRequest | null;

  @NestedField(() => AgentApprovalThresholdsRequest, { required: false, nullable: true })
  approvalThresholds?: AgentApprovalThresholdsRequest | null;
}

// ---- Defaults, rendering, merging -------------------------------------------------------------

const isPermission = (v: unknown): v is AgentPermission => AGENT_PERMISSIONS.includes(v as AgentPermission);
const isMode = (v: unknown): v is AgentExecutionMode => AGENT_EXECUTION_MODES.includes(v as AgentExecutionMode);
const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** `VIEW_TRANSACTIONS` first, then the others in the order given, each once. */
export function normalizePermissions(list: unknown): AgentPermission[] {
  const given = Array.isArray(list) ? list.filter(isPermission) : [];
  return [...new Set<AgentPermission>([ALWAYS_GRANTED, ...given])];
}

/** The canonical id form: `InternalAccount:<lower-case uuid>` (what was validated stays as it is otherwise). */
const canonicalAccountId = (id: string) => {
  const uuid = parseId('InternalAccount', id);
  return uuid ? formatId('InternalAccount', uuid) : id;
};

/**
 * The policy with the spec's defaults applied, from a validated request or a stored value:
 * `VIEW_TRANSACTIONS` always granted, `defaultExecutionMode` and each rule's `executionMode`
 * `AUTO` when omitted, absent nullable limits rendered as null. What is stored is this form, and
 * rendering re-applies it, so a stored policy always renders with the defaults.
 */
export function renderPolicy(value: unknown): AgentPolicy {
  const p = isRecord(value) ? value : {};
  const limits = isRecord(p.spendingLimits) ? p.spendingLimits : {};
  const policy: AgentPolicy = {
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
  if (dailyCount !== null) policy.spendingLimits.dailyTransactionLimit = dailyCount;
  if (isRecord(p.accountRestrictions)) {
    const r = p.accountRestrictions;
    policy.accountRestrictions = {
      allowedAccountIds: Array.isArray(r.allowedAccountIds)
        ? r.allowedAccountIds.filter((id): id is string => typeof id === 'string').map(canonicalAccountId)
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
export function applyPolicyUpdate(current: AgentPolicy, update: AgentPolicyUpdateRequest): AgentPolicy {
  return renderPolicy(mergePatch(current, plain(update), { nested: ['spendingLimits'] }));
}

/** A validated DTO instance as plain JSON (class instances and undefined members dropped). */
function plain(value: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** `path.member`, or `member` at the top level (`path` ''). */
const under = (path: string, member: string) => (path ? `${path}.${member}` : member);

/**
 * Rules across members, checked on the policy as it will be stored (so a PATCH cannot break them).
 * `path` prefixes the FieldErrors' fields: `policy` in POST /agents, '' in the policy PATCH.
 */
export function policyRuleErrors(policy: AgentPolicy, path = 'policy'): FieldError[] {
  const errors: FieldError[] = [];
  const t = policy.approvalThresholds;
  if (t && t.amount !== null && t.currency === undefined) {
    errors.push(
      fieldError(
        under(path, 'approvalThresholds.currency'),
        'currency is required when approvalThresholds.amount is set',
        {
          format: 'iso4217',
        },
      ),
    );
  }
  const seen = new Map<string, number>();
  policy.accountRestrictions?.accountRules.forEach((rule, i) => {
    const first = seen.get(rule.accountId);
    if (first !== undefined) {
      errors.push(
        fieldError(
          under(path, `accountRestrictions.accountRules.${i}.accountId`),
          `accountRules.${first} already has a rule for ${rule.accountId}`,
        ),
      );
    } else seen.set(rule.accountId, i);
  });
  return errors;
}

/** Every internal account the policy names, with the field it is named in (checked against the customer). */
export function policyAccountReferences(
  policy: AgentPolicy,
  path = 'policy',
): Array<{ field: string; accountId: string }> {
  const r = policy.accountRestrictions;
  if (!r) return [];
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

// ---- Usage counters and their UTC resets ------------------------------------------------------

/** The reference's AgentUsage: counters and the UTC date / month at which they next reset. */
export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: number;
  monthlySpend: number;
  /** `YYYY-MM-DD`: the daily counters count the UTC day before this date. */
  dailyResetDate: string;
  /** `YYYY-MM`: the monthly counter counts the UTC month before this month. */
  monthlyResetMonth: string;
}

/** `YYYY-MM-DD` of the UTC day `days` after `now`'s. */
export function utcDate(now: Date, days = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM` of the UTC month `months` after `now`'s. */
export function utcMonth(now: Date, months = 0): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return d.toISOString().slice(0, 7);
}

/** Zero counters that reset tomorrow and next month (UTC). */
export function freshUsage(now: Date): AgentUsage {
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
export function currentUsage(stored: AgentUsage, now: Date): AgentUsage {
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
