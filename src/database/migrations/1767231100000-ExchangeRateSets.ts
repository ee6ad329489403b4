import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exchange rate sets fetched from a feed (docs/payments.md#exchange-rates, RATE_SOURCE=ecb): one row
 * per source and publication (`as_of`), written by the rates worker and read by every process, so
 * every replica prices from the same set. Append-only: a re-fetched publication is not rewritten.
 * `rates` maps each currency to units per 1 unit of `base`.
 */
export class ExchangeRateSets1767231100000 implements MigrationInterface {
  name = 'ExchangeRateSets1767231100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE exchange_rate_sets (
        source text NOT NULL,
        as_of timestamptz NOT NULL,
        base text NOT NULL,
        rates jsonb NOT NULL,
        fetched_at timestamptz NOT NULL,
        PRIMARY KEY (source, as_of)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE exchange_rate_sets`);
  }
}
