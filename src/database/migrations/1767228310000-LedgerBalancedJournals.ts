import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The database itself refuses an unbalanced journal: a deferred constraint trigger checks, at
 * commit, that the postings of every journal the transaction wrote sum to zero per currency (one
 * index lookup per posting, inside the server). LedgerService checks the same rule before it
 * writes; this guards against any other writer, and `ledger:verify` checks what is stored.
 */
export class LedgerBalancedJournals1767228310000 implements MigrationInterface {
  name = 'LedgerBalancedJournals1767228310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        unbalanced text;
      BEGIN
        SELECT currency INTO unbalanced FROM ledger_entries
         WHERE journal_id = NEW.journal_id GROUP BY currency HAVING SUM(amount) <> 0 LIMIT 1;
        IF unbalanced IS NOT NULL THEN
          RAISE EXCEPTION 'ledger journal % does not balance in %', NEW.journal_id, unbalanced
            USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER ledger_journal_balanced AFTER INSERT ON ledger_entries
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER ledger_journal_balanced ON ledger_entries`);
    await q.query(`DROP FUNCTION ledger_journal_balanced()`);
  }
}
