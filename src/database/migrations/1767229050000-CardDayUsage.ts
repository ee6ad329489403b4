import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A card's velocity counters (docs/cards.md, "Limits"; docs/ledger.md, "The two-statement path"):
 * the UTC day (the platform's clock) of its latest approved purchase, and that day's approved
 * purchases (count) and their authorized amounts (spent), kept on the card row and advanced by
 * every approved authorization in its own statement, instead of aggregating card_transactions on
 * every authorization. Backfilled from the card's transactions: its latest day with an approved
 * purchase, and that day's count and sum, exactly what the aggregate gave.
 */
export class CardDayUsage1767229050000 implements MigrationInterface {
  name = 'CardDayUsage1767229050000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards ADD COLUMN day_usage_date date`);
    await q.query(`ALTER TABLE cards ADD COLUMN day_usage_count integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE cards ADD COLUMN day_usage_spent bigint NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE cards c SET day_usage_date = u.day, day_usage_count = u.count, day_usage_spent = u.spent
        FROM (SELECT DISTINCT ON (card_id) card_id, day, count, spent
                FROM (SELECT card_id, (authorized_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS count,
                             sum(authorized_amount) AS spent
                        FROM card_transactions
                       WHERE direction = 'DEBIT' AND status <> 'DECLINED'
                       GROUP BY 1, 2) d
               ORDER BY card_id, day DESC) u
       WHERE c.id = u.card_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cards DROP COLUMN day_usage_spent`);
    await q.query(`ALTER TABLE cards DROP COLUMN day_usage_count`);
    await q.query(`ALTER TABLE cards DROP COLUMN day_usage_date`);
  }
}
