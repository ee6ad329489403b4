import type { MigrationInterface, QueryRunner } from 'typeorm';
import { newUuid } from '../../common/ids.js';

const SYSTEM_ACCOUNTS = `'RAIL_CLEARING', 'FX', 'FEES_COLLECTED', 'PLATFORM_REVENUE', 'SANDBOX_FUNDING', 'CARD_SETTLEMENT', 'OPENING_BALANCE'`;

/**
 * Double entry: every `ledger_entries` row is a posting of a journal (`journal_id`) whose postings
 * sum to zero per currency, to an internal account (`account_id`, with `seq` and `balance_after`)
 * or to one of the service's own accounts (`system_account` of the row's platform and currency).
 *
 * The single-sided entries written before this migration each become their own journal, balanced
 * by a contra posting to the platform's OPENING_BALANCE account: every balance stays what it was
 * and equals the sum of its postings.
 */
export class DoubleEntryLedger1767228300000 implements MigrationInterface {
  name = 'DoubleEntryLedger1767228300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ledger_entries
        ADD COLUMN journal_id uuid,
        ADD COLUMN currency text,
        ADD COLUMN system_account text`);
    // The backfill edits history once, with the append-only trigger off inside this transaction.
    await q.query(`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`);
    await q.query(`
      UPDATE ledger_entries e SET journal_id = e.id, currency = a.currency
        FROM internal_accounts a WHERE a.id = e.account_id`);
    await q.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
    await q.query(`
      ALTER TABLE ledger_entries
        ALTER COLUMN journal_id SET NOT NULL,
        ALTER COLUMN currency SET NOT NULL,
        ALTER COLUMN account_id DROP NOT NULL,
        ALTER COLUMN seq DROP NOT NULL,
        ALTER COLUMN balance_after DROP NOT NULL,
        ADD CONSTRAINT ledger_entries_system_account CHECK (system_account IN (${SYSTEM_ACCOUNTS})),
        ADD CONSTRAINT ledger_entries_one_account CHECK (
          (account_id IS NOT NULL AND system_account IS NULL AND seq IS NOT NULL AND balance_after IS NOT NULL)
          OR (account_id IS NULL AND system_account IS NOT NULL AND seq IS NULL AND balance_after IS NULL))`);

    await q.query(`CREATE INDEX ledger_entries_journal ON ledger_entries (journal_id)`);
    // Contra postings for the entries that existed before double entry, in batches.
    for (;;) {
      const rows = (await q.query(
        `SELECT e.id FROM ledger_entries e
          WHERE e.account_id IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM ledger_entries c WHERE c.journal_id = e.journal_id AND c.id <> e.id)
          LIMIT 5000`,
      )) as Array<{ id: string }>;
      if (rows.length === 0) break;
      await q.query(
        `INSERT INTO ledger_entries
           (id, journal_id, account_id, system_account, platform_id, currency, seq, amount, balance_after,
            reason, reference, created_at)
         SELECT x.new_id, e.journal_id, NULL, 'OPENING_BALANCE', e.platform_id, e.currency, NULL, -e.amount, NULL,
                'OPENING_BALANCE', e.reference, e.created_at
           FROM unnest($1::uuid[], $2::uuid[]) AS x(source_id, new_id)
           JOIN ledger_entries e ON e.id = x.source_id`,
        [rows.map((r) => r.id), rows.map(() => newUuid())],
      );
    }
    await q.query(`
      CREATE INDEX ledger_entries_system ON ledger_entries (platform_id, system_account, currency)
        WHERE system_account IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_entries_system`);
    await q.query(`DROP INDEX ledger_entries_journal`);
    await q.query(`ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only`);
    await q.query(`DELETE FROM ledger_entries WHERE account_id IS NULL`);
    await q.query(`ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_append_only`);
    await q.query(`
      ALTER TABLE ledger_entries
        DROP CONSTRAINT ledger_entries_one_account,
        DROP CONSTRAINT ledger_entries_system_account,
        ALTER COLUMN account_id SET NOT NULL,
        ALTER COLUMN seq SET NOT NULL,
        ALTER COLUMN balance_after SET NOT NULL,
        DROP COLUMN system_account,
        DROP COLUMN currency,
        DROP COLUMN journal_id`);
  }
}
