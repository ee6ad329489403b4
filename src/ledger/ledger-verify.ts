import type { DataSource, EntityManager } from 'typeorm';
import { formatId } from '../common/ids.js';

/** The first rule that does not hold, named with what breaks it. */
export interface LedgerViolation {
  rule:
    | 'JOURNAL_UNBALANCED'
    | 'BALANCE_NOT_SUM_OF_POSTINGS'
    | 'RUNNING_BALANCE_WRONG'
    | 'SEQUENCE_GAP'
    | 'NEGATIVE_BALANCE'
    | 'HELD_NOT_SUM_OF_HOLDS';
  problem: string;
  journalId?: string;
  accountId?: string;
  platformId: string;
  currency?: string;
}

export interface LedgerVerifyResult {
  ok: boolean;
  /** What was checked (of the platform, or of all). */
  journals: number;
  postings: number;
  accounts: number;
  violation?: LedgerViolation;
}

/**
 * Checks the stored ledger (one platform's, or everything) in one REPEATABLE READ READ ONLY
 * snapshot, so movements committing meanwhile are either wholly in or wholly out:
 *  1. every journal balances: its postings sum to zero per currency;
 *  2. each internal account's balance is the sum of its postings, its ledger_seq the number of them;
 *  3. each posting's balance_after is the running sum, seq numbers 1, 2, 3... without gaps;
 *  4. no internal account is (or was) below zero (system accounts may be: they are not customer money);
 *  5. each internal account's held is the sum of its open holds' remaining.
 * Returns the first violation (rules in that order, then by id). Read-only: safe on a replica.
 */
export async function verifyLedger(db: DataSource, platformUuid: string | null = null): Promise<LedgerVerifyResult> {
  return db.transaction('REPEATABLE READ', async (m) => {
    await m.query('SET TRANSACTION READ ONLY');
    return verifyIn(m, platformUuid);
  });
}

async function verifyIn(m: EntityManager, platform: string | null): Promise<LedgerVerifyResult> {
  const params = platform ? [platform] : [];
  const onPlatform = (alias: string) => (platform ? `${alias}.platform_id = $1` : 'TRUE');
  const [counts] = await m.query<Array<{ journals: string; postings: string; accounts: string }>>(
    `SELECT (SELECT COUNT(DISTINCT journal_id) FROM ledger_entries e WHERE ${onPlatform('e')})::text AS journals,
            (SELECT COUNT(*) FROM ledger_entries e WHERE ${onPlatform('e')})::text AS postings,
            (SELECT COUNT(*) FROM internal_accounts a WHERE ${onPlatform('a')})::text AS accounts`,
    params,
  );
  const result = {
    journals: Number(counts.journals),
    postings: Number(counts.postings),
    accounts: Number(counts.accounts),
  };
  const violation = await firstViolation(m, platform, params, onPlatform);
  return violation ? { ok: false, ...result, violation } : { ok: true, ...result };
}

async function firstViolation(
  m: EntityManager,
  platform: string | null,
  params: string[],
  onPlatform: (alias: string) => string,
): Promise<LedgerViolation | null> {
  const account = (id: string) => formatId('InternalAccount', id);
  const platformOf = (id: string) => formatId('Platform', id);

  // 1. Balanced journals (every journal touching the platform, all its postings).
  const journalFilter = platform
    ? `WHERE journal_id IN (SELECT journal_id FROM ledger_entries WHERE platform_id = $1)`
    : '';
  const [unbalanced] = await m.query<Array<{ journal_id: string; currency: string; sum: string; platform_id: string }>>(
    `SELECT journal_id, currency, SUM(amount)::text AS sum, MIN(platform_id::text) AS platform_id
       FROM ledger_entries ${journalFilter}
      GROUP BY journal_id, currency HAVING SUM(amount) <> 0
      ORDER BY journal_id, currency LIMIT 1`,
    params,
  );
  if (unbalanced)
    return {
      rule: 'JOURNAL_UNBALANCED',
      problem: `journal ${unbalanced.journal_id} does not balance: its ${unbalanced.currency} postings sum to ${unbalanced.sum}`,
      journalId: unbalanced.journal_id,
      platformId: platformOf(unbalanced.platform_id),
      currency: unbalanced.currency,
    };

  // 2. Cached balance and ledger_seq against the postings.
  const [mismatch] = await m.query<
    Array<{
      id: string;
      platform_id: string;
      currency: string;
      balance: string;
      ledger_seq: string;
      sum: string;
      n: string;
    }>
  >(
    `SELECT a.id, a.platform_id, a.currency, a.balance::text, a.ledger_seq::text,
            COALESCE(s.sum, 0)::text AS sum, COALESCE(s.n, 0)::text AS n
       FROM internal_accounts a
       LEFT JOIN (SELECT account_id, SUM(amount) AS sum, COUNT(*) AS n FROM ledger_entries
                   WHERE account_id IS NOT NULL GROUP BY account_id) s ON s.account_id = a.id
      WHERE ${onPlatform('a')} AND (a.balance <> COALESCE(s.sum, 0) OR a.ledger_seq <> COALESCE(s.n, 0))
      ORDER BY a.id LIMIT 1`,
    params,
  );
  if (mismatch)
    return {
      rule: 'BALANCE_NOT_SUM_OF_POSTINGS',
      problem:
        `${account(mismatch.id)} has balance ${mismatch.balance} (ledger_seq ${mismatch.ledger_seq}) ` +
        `but its ${mismatch.n} postings sum to ${mismatch.sum}`,
      accountId: account(mismatch.id),
      platformId: platformOf(mismatch.platform_id),
      currency: mismatch.currency,
    };

  // 3 and 4. Running balances, sequence, never below zero.
  const [running] = await m.query<
    Array<{
      account_id: string;
      platform_id: string;
      currency: string;
      seq: string;
      balance_after: string;
      running: string;
      n: string;
    }>
  >(
    `SELECT account_id, platform_id, currency, seq::text, balance_after::text, running::text, n::text FROM (
       SELECT account_id, platform_id, currency, seq, balance_after,
              SUM(amount) OVER (PARTITION BY account_id ORDER BY seq) AS running,
              ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY seq) AS n
         FROM ledger_entries e WHERE account_id IS NOT NULL AND ${onPlatform('e')}) r
      WHERE balance_after <> running OR seq <> n OR balance_after < 0
      ORDER BY account_id, seq LIMIT 1`,
    params,
  );
  if (running) {
    const id = account(running.account_id);
    const base = { accountId: id, platformId: platformOf(running.platform_id), currency: running.currency };
    if (running.seq !== running.n)
      return { rule: 'SEQUENCE_GAP', problem: `${id}: posting number ${running.n} has seq ${running.seq}`, ...base };
    if (running.balance_after !== running.running)
      return {
        rule: 'RUNNING_BALANCE_WRONG',
        problem: `${id}: posting seq ${running.seq} records balance ${running.balance_after}, its postings sum to ${running.running}`,
        ...base,
      };
    return {
      rule: 'NEGATIVE_BALANCE',
      problem: `${id}: posting seq ${running.seq} leaves balance ${running.balance_after}`,
      ...base,
    };
  }
  const [negative] = await m.query<Array<{ id: string; platform_id: string; currency: string; balance: string }>>(
    `SELECT id, platform_id, currency, balance::text FROM internal_accounts a
      WHERE ${onPlatform('a')} AND balance < 0 ORDER BY id LIMIT 1`,
    params,
  );
  if (negative)
    return {
      rule: 'NEGATIVE_BALANCE',
      problem: `${account(negative.id)} has balance ${negative.balance}`,
      accountId: account(negative.id),
      platformId: platformOf(negative.platform_id),
      currency: negative.currency,
    };

  // 5. Held funds against the open holds.
  const [held] = await m.query<
    Array<{ id: string; platform_id: string; currency: string; held: string; open: string }>
  >(
    `SELECT a.id, a.platform_id, a.currency, a.held::text, COALESCE(h.open, 0)::text AS open
       FROM internal_accounts a
       LEFT JOIN (SELECT account_id, SUM(remaining) AS open FROM ledger_holds WHERE status = 'OPEN'
                   GROUP BY account_id) h ON h.account_id = a.id
      WHERE ${onPlatform('a')} AND a.held <> COALESCE(h.open, 0)
      ORDER BY a.id LIMIT 1`,
    params,
  );
  if (held)
    return {
      rule: 'HELD_NOT_SUM_OF_HOLDS',
      problem: `${account(held.id)} has held ${held.held} but its open holds keep ${held.open}`,
      accountId: account(held.id),
      platformId: platformOf(held.platform_id),
      currency: held.currency,
    };
  return null;
}
