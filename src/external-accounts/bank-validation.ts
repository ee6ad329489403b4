import type { BusinessTime } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { ApiError } from '../errors/api-error.js';
import type { BankValidationOutcome, ExternalAccountEntity, ExternalAccountStatus } from './external-account.entity.js';
import type { AccountInfo } from './variants/index.js';

/**
 * US bank account validation by micro-entry (docs/external-accounts.md, "US bank account
 * validation"). A new `USD_ACCOUNT` is sent a micro-entry over ACH; the account is usable once the
 * return window (banking days, on the platform's `Clock`) closes without a return. Which micro-entries
 * come back is the rail's answer; in sandbox (SANDBOX=true only) the account number chooses it.
 */

/** ACH returns for an invalid or closed account (R02, R03, R04) come within two banking days. */
export const RETURN_WINDOW_BANKING_DAYS = 2;

/** Sandbox: the micro-entry to this account number is returned when the window closes (INVALID_BANK_ACCOUNT). */
export const SANDBOX_RETURNED_ACCOUNT_NUMBER = '000111111116';
/** Sandbox: this account number waits out the whole window, then validates. */
export const SANDBOX_SLOW_ACCOUNT_NUMBER = '000222222227';

const VALIDATED_TYPES = new Set(['USD_ACCOUNT']);

/** What a new account starts with: PENDING for the window, or at once ACTIVE (every other number). */
export interface InitialBankValidation {
  status: ExternalAccountStatus;
  bankValidation: BankValidationOutcome | null;
  bankValidationDueAt: BusinessTime | null;
}

/** `t` plus `days` banking days (Monday to Friday, UTC), at the same time of day. */
export function addBankingDays(t: BusinessTime, days: number): BusinessTime {
  const d = new Date(t.getTime());
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return d as BusinessTime;
}

/**
 * The validation a new account of `accountType` starts (null: none, the account is ACTIVE as
 * before). With `sandbox` (SANDBOX=true only: magic values exist only in sandbox) the magic numbers
 * pick the slow paths; any other US account's micro-entry is treated as accepted at once, so the
 * account is usable immediately (as every account created before this existed is).
 */
export function initialBankValidation(
  accountType: string,
  info: AccountInfo,
  now: BusinessTime,
  sandbox: boolean,
): InitialBankValidation | null {
  if (!VALIDATED_TYPES.has(accountType)) return null;
  const number = typeof info.accountNumber === 'string' ? info.accountNumber : '';
  if (sandbox && (number === SANDBOX_RETURNED_ACCOUNT_NUMBER || number === SANDBOX_SLOW_ACCOUNT_NUMBER)) {
    return {
      status: 'PENDING',
      bankValidation: number === SANDBOX_RETURNED_ACCOUNT_NUMBER ? 'RETURNED' : 'VALIDATED',
      bankValidationDueAt: addBankingDays(now, RETURN_WINDOW_BANKING_DAYS),
    };
  }
  return { status: 'ACTIVE', bankValidation: 'VALIDATED', bankValidationDueAt: null };
}

/** The status the window ends in. */
export function statusAfterWindow(outcome: BankValidationOutcome): ExternalAccountStatus {
  return outcome === 'RETURNED' ? 'INACTIVE' : 'ACTIVE';
}

/**
 * Why money cannot move to or from `account` because of its validation: 409
 * BANK_ACCOUNT_VALIDATION_PENDING while the window is open, 400 INVALID_BANK_ACCOUNT once the
 * micro-entry came back. Null when validation does not stand in the way.
 */
export function bankValidationError(account: ExternalAccountEntity): ApiError | null {
  const accountId = formatId('ExternalAccount', account.id);
  if (account.status === 'PENDING' && account.bankValidationDueAt !== null) {
    return new ApiError(
      'BANK_ACCOUNT_VALIDATION_PENDING',
      `US bank account ${accountId} is still being validated (micro-entry return window); retry once validation completes`,
      { details: { accountId, validationCompletesAt: account.bankValidationDueAt.toISOString() } },
    );
  }
  if (account.bankValidation === 'RETURNED' && account.bankValidationDueAt === null && account.status === 'INACTIVE') {
    return new ApiError(
      'INVALID_BANK_ACCOUNT',
      `US bank account ${accountId} failed validation: its micro-entry was returned`,
      { details: { accountId } },
    );
  }
  return null;
}
