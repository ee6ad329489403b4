import { currentUsage, freshUsage, utcDate, utcMonth } from '../../../src/agents/agent-policy.js';
import type { AgentPolicy, AgentUsage } from '../../../src/agents/agent-policy.js';
import { EvaluationInput, evaluatePolicy } from '../../../src/agents/policy-evaluator.js';

const SRC = 'InternalAccount:00000000-0000-7000-8000-000000000001';
const OTHER = 'InternalAccount:00000000-0000-7000-8000-000000000002';
const NOW = new Date('2026-03-15T12:00:00.000Z');

/** 1 EUR = 1.1 USD; anything else 1:1. */
const convert = (amount: number, from: string, to: string) =>
  from === 'EUR' && to === 'USD' ? amount * 1.1 : from === 'USD' && to === 'EUR' ? amount / 1.1 : amount;

type Limits = Partial<AgentPolicy['spendingLimits']>;
type Restrictions = {
  allowedAccountIds?: string[] | null;
  accountRules?: Array<Partial<Rule> & { accountId: string }>;
};
type Rule = NonNullable<AgentPolicy['accountRestrictions']>['accountRules'][number];

/** A stored policy (defaults as agent-policy.ts renders them) with the given members. */
const policy = ({
  spendingLimits,
  accountRestrictions,
  ...over
}: Partial<Omit<AgentPolicy, 'spendingLimits' | 'accountRestrictions'>> & {
  spendingLimits?: Limits;
  accountRestrictions?: Restrictions;
} = {}): AgentPolicy => ({
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
  defaultExecutionMode: 'AUTO',
  ...over,
  spendingLimits: {
    currency: 'USD',
    perTransactionLimit: 1000,
    dailyLimit: null,
    monthlyLimit: null,
    ...spendingLimits,
  },
  ...(accountRestrictions
    ? {
        accountRestrictions: {
          allowedAccountIds: accountRestrictions.allowedAccountIds ?? null,
          accountRules: (accountRestrictions.accountRules ?? []).map((r) => ({
            executionMode: 'AUTO' as const,
            perTransactionLimit: null,
            ...r,
          })),
        },
      }
    : {}),
});

const input = (over: Partial<EvaluationInput> = {}): EvaluationInput => ({
  policy: policy(),
  usage: freshUsage(NOW),
  amount: { value: 100, currency: 'USD' },
  sourceAccountId: SRC,
  internalAccountIds: [SRC],
  now: NOW,
  convert,
  ...over,
});

const usage = (over: Partial<AgentUsage> = {}): AgentUsage => ({ ...freshUsage(NOW), ...over });

describe('policy evaluator', () => {
  describe('UTC calendar', () => {
    it('computes tomorrow and next month in UTC, across month and year ends', () => {
      expect(utcDate(new Date('2026-03-15T23:59:59.999Z'), 1)).toBe('2026-03-16');
      expect(utcDate(new Date('2026-02-28T00:00:00.000Z'), 1)).toBe('2026-03-01');
      expect(utcDate(new Date('2028-02-28T10:00:00.000Z'), 1)).toBe('2028-02-29');
      expect(utcDate(new Date('2026-12-31T10:00:00.000Z'), 1)).toBe('2027-01-01');
      expect(utcMonth(new Date('2026-12-31T23:59:59.999Z'), 1)).toBe('2027-01');
      expect(utcMonth(new Date('2026-01-31T00:00:00.000Z'), 1)).toBe('2026-02');
    });

    it('starts at zero, resetting tomorrow and next month', () => {
      expect(freshUsage(NOW)).toEqual({
        dailyTransactionCount: 0,
        dailySpend: 0,
        monthlySpend: 0,
        dailyResetDate: '2026-03-16',
        monthlyResetMonth: '2026-04',
      });
    });

    it('keeps the counters until the last millisecond of the UTC day, resets them at 00:00 UTC', () => {
      const used = usage({ dailyTransactionCount: 3, dailySpend: 500, monthlySpend: 900 });
      expect(currentUsage(used, new Date('2026-03-15T23:59:59.999Z'))).toEqual(used);
      expect(currentUsage(used, new Date('2026-03-16T00:00:00.000Z'))).toEqual({
        dailyTransactionCount: 0,
        dailySpend: 0,
        monthlySpend: 900,
        dailyResetDate: '2026-03-17',
        monthlyResetMonth: '2026-04',
      });
    });

    it('resets the month at 00:00 UTC on the first, and both after a long gap', () => {
      const used = usage({ dailyTransactionCount: 3, dailySpend: 500, monthlySpend: 900 });
      expect(currentUsage(used, new Date('2026-04-01T00:00:00.000Z'))).toEqual(
        freshUsage(new Date('2026-04-01T00:00:00.000Z')),
      );
      expect(currentUsage(used, new Date('2026-03-31T23:59:59.999Z')).monthlySpend).toBe(900);
      expect(currentUsage(used, new Date('2027-07-04T08:00:00.000Z'))).toEqual(
        freshUsage(new Date('2027-07-04T08:00:00.000Z')),
      );
    });

    it('a time zone ahead of UTC does not reset early (the date is UTC)', () => {
      const used = usage({ dailySpend: 500 });
      // 2026-03-16T01:00+02:00 is still 2026-03-15 in UTC.
      expect(currentUsage(used, new Date('2026-03-16T01:00:00.000+02:00')).dailySpend).toBe(500);
    });
  });

  describe('hard limits: exactly at the limit allowed, one unit over refused', () => {
    it('perTransactionLimit', () => {
      expect(evaluatePolicy(input({ amount: { value: 1000, currency: 'USD' } })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ amount: { value: 1001, currency: 'USD' } }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'perTransactionLimit',
        value: 1000,
        amount: 1001,
        currency: 'USD',
      });
    });

    it('perTransactionLimit in another currency converts the amount, rounding up', () => {
      // 909 EUR = 999.9 USD -> 1000: allowed; 910 EUR = 1001 USD: refused.
      expect(evaluatePolicy(input({ amount: { value: 909, currency: 'EUR' } })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ amount: { value: 910, currency: 'EUR' } }))).toMatchObject({
        limit: 'perTransactionLimit',
        amount: 1001,
      });
    });

    it("the source account rule's perTransactionLimit, in the account's currency", () => {
      const p = policy({ accountRestrictions: { accountRules: [{ accountId: SRC, perTransactionLimit: 300 }] } });
      expect(evaluatePolicy(input({ policy: p, amount: { value: 300, currency: 'USD' } })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, amount: { value: 301, currency: 'USD' } }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'accountRules.perTransactionLimit',
        value: 300,
        amount: 301,
      });
      // A rule of another account, or a null limit, does not apply.
      const other = policy({ accountRestrictions: { accountRules: [{ accountId: OTHER, perTransactionLimit: 1 }] } });
      expect(evaluatePolicy(input({ policy: other })).outcome).toBe('AUTO');
      const inherit = policy({
        accountRestrictions: { accountRules: [{ accountId: SRC, perTransactionLimit: null }] },
      });
      expect(evaluatePolicy(input({ policy: inherit, amount: { value: 1000, currency: 'USD' } })).outcome).toBe('AUTO');
    });

    it('dailyLimit counts the day so far plus this amount', () => {
      const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1500 } });
      const u = usage({ dailySpend: 1000, monthlySpend: 1000, dailyTransactionCount: 2 });
      const at = evaluatePolicy(input({ policy: p, usage: u, amount: { value: 500, currency: 'USD' } }));
      expect(at).toMatchObject({
        outcome: 'AUTO',
        usageAfter: { dailySpend: 1500, monthlySpend: 1500, dailyTransactionCount: 3 },
      });
      expect(evaluatePolicy(input({ policy: p, usage: u, amount: { value: 501, currency: 'USD' } }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'dailyLimit',
        value: 1500,
        amount: 1501,
        currency: 'USD',
      });
    });

    it('monthlyLimit counts the month so far plus this amount', () => {
      const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, monthlyLimit: 5000 } });
      const u = usage({ monthlySpend: 4000 });
      expect(evaluatePolicy(input({ policy: p, usage: u, amount: { value: 1000, currency: 'USD' } })).outcome).toBe(
        'AUTO',
      );
      expect(
        evaluatePolicy(input({ policy: p, usage: u, amount: { value: 1000 + 1, currency: 'USD' } })),
      ).toMatchObject({
        limit: 'perTransactionLimit',
      });
      expect(
        evaluatePolicy(
          input({ policy: p, usage: usage({ monthlySpend: 4001 }), amount: { value: 1000, currency: 'USD' } }),
        ),
      ).toMatchObject({ outcome: 'DENIED', limit: 'monthlyLimit', value: 5000, amount: 5001 });
    });

    it('dailyTransactionLimit counts this transaction', () => {
      const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyTransactionLimit: 3 } });
      expect(evaluatePolicy(input({ policy: p, usage: usage({ dailyTransactionCount: 2 }) })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, usage: usage({ dailyTransactionCount: 3 }) }))).toEqual({
        outcome: 'DENIED',
        limit: 'dailyTransactionLimit',
        value: 3,
        amount: 4,
        usage: usage({ dailyTransactionCount: 3 }),
      });
      // A limit of zero refuses every transaction.
      const none = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyTransactionLimit: 0 } });
      expect(evaluatePolicy(input({ policy: none })).outcome).toBe('DENIED');
    });

    it('null daily and monthly limits mean no limit', () => {
      const p = policy({
        spendingLimits: {
          currency: 'USD',
          perTransactionLimit: 1000,
          dailyLimit: null,
          monthlyLimit: null,
          dailyTransactionLimit: undefined,
        },
      });
      const u = usage({ dailySpend: 9e12, monthlySpend: 9e12, dailyTransactionCount: 1e6 });
      expect(evaluatePolicy(input({ policy: p, usage: u })).outcome).toBe('AUTO');
    });

    it('counters of a past day or month do not count (reset with the clock)', () => {
      const p = policy({
        spendingLimits: {
          currency: 'USD',
          perTransactionLimit: 1000,
          dailyLimit: 1000,
          monthlyLimit: 2000,
          dailyTransactionLimit: 1,
        },
      });
      const full = usage({ dailyTransactionCount: 1, dailySpend: 1000, monthlySpend: 2000 });
      expect(evaluatePolicy(input({ policy: p, usage: full })).outcome).toBe('DENIED');
      // Next UTC day: daily counters are back to zero, the month is still full.
      const tomorrow = new Date('2026-03-16T00:00:00.000Z');
      expect(evaluatePolicy(input({ policy: p, usage: full, now: tomorrow }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'monthlyLimit',
        usage: { dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 2000, dailyResetDate: '2026-03-17' },
      });
      // Next UTC month: all clear, and the new counters are what gets stored.
      const nextMonth = new Date('2026-04-01T00:00:00.000Z');
      expect(evaluatePolicy(input({ policy: p, usage: full, now: nextMonth }))).toEqual({
        outcome: 'AUTO',
        usage: freshUsage(nextMonth),
        usageAfter: { ...freshUsage(nextMonth), dailyTransactionCount: 1, dailySpend: 100, monthlySpend: 100 },
      });
    });

    it('allowedAccountIds must name every internal account touched; null or absent allows all', () => {
      const p = policy({ accountRestrictions: { allowedAccountIds: [SRC] } });
      expect(evaluatePolicy(input({ policy: p })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, internalAccountIds: [SRC, OTHER] }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'allowedAccountIds',
        value: OTHER,
      });
      expect(
        evaluatePolicy(input({ policy: policy({ accountRestrictions: { allowedAccountIds: [] } }) })).outcome,
      ).toBe('DENIED');
      expect(
        evaluatePolicy(input({ policy: policy({ accountRestrictions: { allowedAccountIds: null } }) })).outcome,
      ).toBe('AUTO');
    });

    it('hard limits are checked before the execution mode: an over-limit amount is refused, not queued', () => {
      const p = policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' });
      expect(evaluatePolicy(input({ policy: p, amount: { value: 1001, currency: 'USD' } })).outcome).toBe('DENIED');
    });
  });

  describe('execution mode and approval thresholds', () => {
    it('defaultExecutionMode APPROVAL_REQUIRED asks for approval and reserves nothing', () => {
      const u = usage({ dailySpend: 10 });
      expect(
        evaluatePolicy(input({ policy: policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), usage: u })),
      ).toEqual({
        outcome: 'APPROVAL_REQUIRED',
        cause: 'DEFAULT_EXECUTION_MODE',
        usage: u,
      });
    });

    it("the source account rule's executionMode overrides the default, both ways", () => {
      const strict = policy({
        accountRestrictions: { accountRules: [{ accountId: SRC, executionMode: 'APPROVAL_REQUIRED' }] },
      });
      expect(evaluatePolicy(input({ policy: strict }))).toMatchObject({
        outcome: 'APPROVAL_REQUIRED',
        cause: 'ACCOUNT_EXECUTION_MODE',
      });
      const lax = policy({
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        accountRestrictions: { accountRules: [{ accountId: SRC, executionMode: 'AUTO' }] },
      });
      expect(evaluatePolicy(input({ policy: lax })).outcome).toBe('AUTO');
      const elsewhere = policy({
        accountRestrictions: { accountRules: [{ accountId: OTHER, executionMode: 'APPROVAL_REQUIRED' }] },
      });
      expect(evaluatePolicy(input({ policy: elsewhere })).outcome).toBe('AUTO');
    });

    it('an amount exactly at the threshold runs, one unit above needs approval', () => {
      const p = policy({ approvalThresholds: { currency: 'USD', amount: 500 } });
      expect(evaluatePolicy(input({ policy: p, amount: { value: 500, currency: 'USD' } })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, amount: { value: 501, currency: 'USD' } }))).toMatchObject({
        outcome: 'APPROVAL_REQUIRED',
        cause: 'APPROVAL_THRESHOLD',
      });
    });

    it('a threshold in another currency converts the amount; a null amount is no threshold', () => {
      const p = policy({ approvalThresholds: { currency: 'EUR', amount: 100 } });
      // 110 USD = 100 EUR: at the threshold. 111 USD = 100.9 EUR -> 101: above.
      expect(evaluatePolicy(input({ policy: p, amount: { value: 110, currency: 'USD' } })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, amount: { value: 111, currency: 'USD' } })).outcome).toBe(
        'APPROVAL_REQUIRED',
      );
      const none = policy({ approvalThresholds: { currency: 'USD', amount: null } });
      expect(evaluatePolicy(input({ policy: none, amount: { value: 1000, currency: 'USD' } })).outcome).toBe('AUTO');
    });

    it('at approval only the hard limits apply', () => {
      const p = policy({
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        approvalThresholds: { currency: 'USD', amount: 1 },
        spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 150 },
      });
      expect(evaluatePolicy(input({ policy: p, approved: true })).outcome).toBe('AUTO');
      expect(evaluatePolicy(input({ policy: p, approved: true, usage: usage({ dailySpend: 51 }) }))).toMatchObject({
        outcome: 'DENIED',
        limit: 'dailyLimit',
      });
    });
  });
});
