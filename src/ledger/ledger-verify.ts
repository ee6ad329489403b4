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
    | 'HELD_NOT_SUM_OF_HOLDS'
    | 'STABLECOIN_OPERATION_POSTINGS'
    | 'STABLECOIN_SUPPLY_MISMATCH'
    | 'STABLECOIN_RESERVE_MISMATCH';
  problem: string;
  journalId?: string;
  accountId?: string;
  platformId: string;
  currency?: string;
  /** `Stablecoin:<uuid>` / `StablecoinOperation:<uuid>` for the stablecoin rules. */
  stablecoinId?: string;
  operationId?: string;
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
 *  5. each internal account's held is the sum of its open holds' remaining;
 *  6. each stablecoin operation moved money once: one journal if COMPLETED, none otherwise;
 *  7. each stablecoin's STABLECOIN_SUPPLY is its completed mints minus its completed burns;
 *  8. each platform's STABLECOIN_RESERVE per currency is the fiat of those mints minus those burns.
 * Returns the first violation (rules in that order, then by id). Read-only: safe on a replica.
 */
export async function verifyLedger(db: DataSource, platformUuid: string | null = null): Promise<LedgerVerifyResult> {
  return db.transaction('REPEATABLE READ', async (m) => {
    await m.query('SET TRANSACTION READ ONLY');
    return verifyIn(m, platformUuid);
  });
}

async function verifyIn(m: EntityManager, platform: string | null): Promise<LedgerVerifyResult> {
  // One platform's check pins every table to its shard; everything's is a tagged read across them.
  const tagged = platform ? m : crossShard(m);
  return verifyOn(tagged, platform);
}

/** `m` whose queries carry the `ledger-verify` cross-shard tag (src/database/distribution.json). */
function crossShard(m: EntityManager): EntityManager {
  return new Proxy(m, {
    get(target, key, receiver) {
      if (key === 'query')
        return (sql: string, parameters?: unknown[]) =>
          target.query(`/* cross-shard: ledger-verify */ ${sql}`, parameters);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

async function verifyOn(m: EntityManager, platform: string | null): Promise<LedgerVerifyResult> {
  const params = platform ? [platform] : [];
  const onPlatform = (alias: string) => (platform ? `${alias}.platform_id = $1` : 'TRUE');
  const [counts] = await m.query<Array<{ journals: string; postings: string; accounts: string }>>(
    `/* cross-shard: ledger-verify */ SELECT (SELECT COUNT(DISTINCT journal_id) FROM ledger_entries e WHERE ${onPlatform('e')})::text AS journals,
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

  // 1. Balanced journals (the platform's: every posting of a journal is its platform's).
  const journalFilter = platform ? 'WHERE platform_id = $1' : '';
  const [unbalanced] = await m.query<Array<{ journal_id: string; currency: string; sum: string; platform_id: string }>>(
    `/* cross-shard: ledger-verify */ SELECT journal_id, currency, SUM(amount)::text AS sum, MIN(platform_id::text) AS platform_id
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
    `/* cross-shard: ledger-verify */ SELECT a.id, a.platform_id, a.currency, a.balance::text, a.ledger_seq::text,
            COALESCE(s.sum, 0)::text AS sum, COALESCE(s.n, 0)::text AS n
       FROM internal_accounts a
       LEFT JOIN (SELECT account_id, platform_id, SUM(amount) AS sum, COUNT(*) AS n FROM ledger_entries e
                   WHERE account_id IS NOT NULL AND ${onPlatform('e')} GROUP BY account_id, platform_id) s
              ON s.platform_id = a.platform_id AND s.account_id = a.id
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
    `/* cross-shard: ledger-verify */ SELECT account_id, platform_id, currency, seq::text, balance_after::text, running::text, n::text FROM (
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
    `/* cross-shard: ledger-verify */ SELECT id, platform_id, currency, balance::text FROM internal_accounts a
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
    `/* cross-shard: ledger-verify */ SELECT a.id, a.platform_id, a.currency, a.held::text, COALESCE(h.open, 0)::text AS open
       FROM internal_accounts a
       LEFT JOIN (SELECT account_id, platform_id, SUM(remaining) AS open FROM ledger_holds lh
                   WHERE status = 'OPEN' AND ${onPlatform('lh')} GROUP BY account_id, platform_id) h
              ON h.platform_id = a.platform_id AND h.account_id = a.id
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
  return stablecoinViolation(m, params, onPlatform);
}

/**
 * Rules 6 to 8: stablecoin supply (docs/stablecoins.md). The tables are read by name (the ledger
 * imports no stablecoin code); an operation's journal is the one whose reference names it.
 */
async function stablecoinViolation(
  m: EntityManager,
  params: string[],
  onPlatform: (alias: string) => string,
): Promise<LedgerViolation | null> {
  const platformOf = (id: string) => formatId('Platform', id);
  const [posted] = await m.query<Array<{ id: string; platform_id: string; status: string; journals: string }>>(
    `/* cross-shard: ledger-verify */ SELECT o.id, o.platform_id, o.status, COUNT(DISTINCT e.journal_id)::text AS journals
       FROM stablecoin_operations o
       LEFT JOIN ledger_entries e ON e.platform_id = o.platform_id AND e.reference = 'StablecoinOperation:' || o.id
      WHERE ${onPlatform('o')}
      GROUP BY o.id, o.platform_id, o.status
     HAVING COUNT(DISTINCT e.journal_id) <> CASE WHEN o.status = 'COMPLETED' THEN 1 ELSE 0 END
      ORDER BY o.id LIMIT 1`,
    params,
  );
  if (posted)
    return {
      rule: 'STABLECOIN_OPERATION_POSTINGS',
      problem: `StablecoinOperation:${posted.id} is ${posted.status} and has ${posted.journals} journals (${posted.status === 'COMPLETED' ? 'one' : 'none'} expected)`,
      operationId: formatId('StablecoinOperation', posted.id),
      platformId: platformOf(posted.platform_id),
    };
  const [supply] = await m.query<
    Array<{ id: string; platform_id: string; symbol: string; issued: string; ledger: string }>
  >(
    `/* cross-shard: ledger-verify */ SELECT c.id, c.platform_id, c.symbol, COALESCE(o.issued, 0)::text AS issued, COALESCE(l.sum, 0)::text AS ledger
       FROM stablecoins c
       LEFT JOIN (SELECT stablecoin_id, platform_id,
                         SUM(CASE WHEN operation_type = 'MINT' THEN amount ELSE -amount END) AS issued
                    FROM stablecoin_operations so WHERE status = 'COMPLETED' AND ${onPlatform('so')}
                   GROUP BY stablecoin_id, platform_id) o ON o.platform_id = c.platform_id AND o.stablecoin_id = c.id
       LEFT JOIN (SELECT platform_id, currency, SUM(amount) AS sum FROM ledger_entries e
                   WHERE system_account = 'STABLECOIN_SUPPLY' AND ${onPlatform('e')} GROUP BY platform_id, currency) l
              ON l.platform_id = c.platform_id AND l.currency = c.symbol
      WHERE ${onPlatform('c')} AND COALESCE(o.issued, 0) <> COALESCE(l.sum, 0)
      ORDER BY c.id LIMIT 1`,
    params,
  );
  if (supply)
    return {
      rule: 'STABLECOIN_SUPPLY_MISMATCH',
      problem: `Stablecoin:${supply.id} (${supply.symbol}): completed mints minus burns are ${supply.issued}, its STABLECOIN_SUPPLY is ${supply.ledger}`,
      stablecoinId: formatId('Stablecoin', supply.id),
      platformId: platformOf(supply.platform_id),
      currency: supply.symbol,
    };
  const [reserve] = await m.query<Array<{ platform_id: string; currency: string; backed: string; ledger: string }>>(
    `/* cross-shard: ledger-verify */ SELECT COALESCE(o.platform_id, l.platform_id) AS platform_id, COALESCE(o.currency, l.currency) AS currency,
            COALESCE(o.backed, 0)::text AS backed, COALESCE(l.sum, 0)::text AS ledger
       FROM (SELECT platform_id, fiat_currency AS currency,
                    SUM(CASE WHEN operation_type = 'MINT' THEN fiat_amount ELSE -fiat_amount END) AS backed
               FROM stablecoin_operations o WHERE status = 'COMPLETED' AND ${onPlatform('o')}
              GROUP BY platform_id, fiat_currency) o
       FULL JOIN (SELECT platform_id, currency, SUM(amount) AS sum FROM ledger_entries e
                   WHERE system_account = 'STABLECOIN_RESERVE' AND ${onPlatform('e')}
                   GROUP BY platform_id, currency) l
              ON l.platform_id = o.platform_id AND l.currency = o.currency
      WHERE COALESCE(o.backed, 0) <> COALESCE(l.sum, 0)
      ORDER BY 1, 2 LIMIT 1`,
    params,
  );
  if (reserve)
    return {
      rule: 'STABLECOIN_RESERVE_MISMATCH',
      problem: `the ${reserve.currency} backing of completed stablecoin operations is ${reserve.backed}, STABLECOIN_RESERVE holds ${reserve.ledger}`,
      platformId: platformOf(reserve.platform_id),
      currency: reserve.currency,
    };
  return null;
}
