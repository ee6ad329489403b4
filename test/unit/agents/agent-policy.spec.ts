import { validateBody } from '../../../src/common/validate-body.js';
import {
  AgentPolicyUpdateRequest,
  applyPolicyUpdate,
  currentUsage,
  freshUsage,
  renderPolicy,
  utcDate,
  utcMonth,
} from '../../../src/agents/agent-policy.js';
import { canonicalDeviceCode, newAccessToken, newDeviceCode } from '../../../src/agents/agent-credentials.js';

const at = (iso: string) => new Date(iso);

describe('agent usage counters (UTC)', () => {
  it('reset tomorrow and next month, across year ends', () => {
    expect(freshUsage(at('2026-12-31T23:59:59.999Z'))).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 0,
      dailyResetDate: '2027-01-01',
      monthlyResetMonth: '2027-01',
    });
    expect(utcDate(at('2028-02-28T10:00:00Z'), 1)).toBe('2028-02-29');
    expect(utcMonth(at('2026-01-31T10:00:00Z'), 1)).toBe('2026-02');
  });

  it('read as reset once the UTC date or month reaches the reset point, and not a millisecond before', () => {
    const stored = {
      dailyTransactionCount: 4,
      dailySpend: 400,
      monthlySpend: 4000,
      dailyResetDate: '2026-07-01',
      monthlyResetMonth: '2026-07',
    };
    expect(currentUsage(stored, at('2026-06-30T23:59:59.999Z'))).toEqual(stored);
    expect(currentUsage(stored, at('2026-07-01T00:00:00.000Z'))).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 0,
      dailyResetDate: '2026-07-02',
      monthlyResetMonth: '2026-08',
    });
    const midMonth = { ...stored, dailyResetDate: '2026-06-16' };
    expect(currentUsage(midMonth, at('2026-06-20T12:00:00Z'))).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 4000,
      dailyResetDate: '2026-06-21',
      monthlyResetMonth: '2026-07',
    });
  });
});

describe('renderPolicy', () => {
  it('applies the defaults to anything stored', () => {
    expect(renderPolicy(null)).toEqual({
      permissions: ['VIEW_TRANSACTIONS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: '', perTransactionLimit: 0, dailyLimit: null, monthlyLimit: null },
    });
    expect(
      renderPolicy({
        permissions: ['EXECUTE_QUOTES', 'EXECUTE_QUOTES', 'NOPE'],
        defaultExecutionMode: 'SOMETIMES',
        spendingLimits: { currency: 'USD', perTransactionLimit: 5, dailyTransactionLimit: 2 },
        accountRestrictions: { accountRules: [{ accountId: 'InternalAccount:019542F5-B3E7-7D02-8000-000000000001' }] },
        approvalThresholds: {},
      }),
    ).toEqual({
      permissions: ['VIEW_TRANSACTIONS', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: {
        currency: 'USD',
        perTransactionLimit: 5,
        dailyLimit: null,
        dailyTransactionLimit: 2,
        monthlyLimit: null,
      },
      accountRestrictions: {
        allowedAccountIds: null,
        accountRules: [
          {
            accountId: 'InternalAccount:019542f5-b3e7-7d02-8000-000000000001',
            executionMode: 'AUTO',
            perTransactionLimit: null,
          },
        ],
      },
      approvalThresholds: { amount: null },
    });
  });

  it('applyPolicyUpdate merges spendingLimits and replaces the rest', () => {
    const current = renderPolicy({
      permissions: ['CREATE_QUOTES'],
      spendingLimits: { currency: 'USD', perTransactionLimit: 5, dailyLimit: 10, monthlyLimit: 100 },
      approvalThresholds: { currency: 'USD', amount: 3 },
    });
    const { value, errors } = validateBody(AgentPolicyUpdateRequest, {
      permissions: [],
      spendingLimits: { dailyLimit: null, perTransactionLimit: 6 },
      approvalThresholds: null,
    });
    expect(errors).toEqual([]);
    expect(applyPolicyUpdate(current, value)).toEqual({
      permissions: ['VIEW_TRANSACTIONS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 6, dailyLimit: null, monthlyLimit: 100 },
    });
  });
});

describe('agent credentials', () => {
  it('device codes use unambiguous characters and are read in any case; tokens are gat_ + 40 hex', () => {
    for (let i = 0; i < 200; i++) {
      const code = newDeviceCode();
      expect(code).toMatch(/^GRID-AGENT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
      expect(canonicalDeviceCode(` ${code.toLowerCase()} `)).toBe(code);
    }
    expect(canonicalDeviceCode('GRID-AGENT-O0I1-L234')).toBeNull();
    expect(newAccessToken()).toMatch(/^gat_[0-9a-f]{40}$/);
    expect(newAccessToken()).not.toBe(newAccessToken());
  });
});
