import { analyze, loadParser, type DistributionMap } from '../../support/shard-rules.js';

const map: DistributionMap = {
  distributionColumn: 'platform_id',
  tables: {
    cards: { kind: 'distributed', reason: '' },
    customers: { kind: 'distributed', reason: '' },
    internal_accounts: { kind: 'distributed', reason: '' },
    platforms: { kind: 'reference', reason: '' },
  },
  crossShard: { 'due-cards': { feature: 'multi-shard SELECT', reason: 'a worker finds platforms with work' } },
};
const rules = (sql: string) => analyze(sql, map).findings.map((f) => f.rule);

beforeAll(() => loadParser());

describe('the shard rules (test/support/shard-rules.ts)', () => {
  it('passes statements that pin platform_id on every distributed table', () => {
    expect(rules(`SELECT * FROM cards WHERE id = $1 AND platform_id = $2`)).toEqual([]);
    expect(rules(`UPDATE "cards" SET "status" = $1 WHERE "id" = $2 AND "platform_id" = $3::uuid`)).toEqual([]);
    expect(rules(`DELETE FROM cards c WHERE c.platform_id = 'x' AND c.id = $1`)).toEqual([]);
    expect(
      rules(`INSERT INTO cards (id, platform_id) VALUES ($1, $2) ON CONFLICT (platform_id, id) DO NOTHING`),
    ).toEqual([]);
    expect(
      rules(
        `SELECT c.* FROM customers c JOIN internal_accounts a ON a.customer_id = c.id AND a.platform_id = c.platform_id WHERE c.platform_id = $1 FOR UPDATE`,
      ),
    ).toEqual([]);
    expect(
      rules(
        `SELECT c.id FROM customers c WHERE c.platform_id = $1 AND NOT EXISTS (SELECT 1 FROM internal_accounts a WHERE a.customer_id = c.id AND a.platform_id = c.platform_id)`,
      ),
    ).toEqual([]);
    expect(rules(`WITH x AS (SELECT id FROM cards WHERE platform_id IN ($1)) SELECT * FROM x`)).toEqual([]);
    expect(rules(`SELECT * FROM platforms WHERE id = $1`)).toEqual([]);
    expect(rules(`BEGIN`)).toEqual([]);
  });

  it('finds what one shard cannot run alone', () => {
    expect(rules(`UPDATE cards SET status = $1 WHERE id = $2`)).toEqual(['unpinned']);
    expect(rules(`SELECT * FROM cards WHERE platform_id = ANY($1)`)).toEqual(['unpinned']);
    expect(rules(`SELECT * FROM cards WHERE due < now() FOR UPDATE SKIP LOCKED`)).toEqual([
      'unpinned',
      'lock-across-shards',
    ]);
    expect(
      rules(
        `SELECT c.id FROM customers c WHERE c.platform_id = $1 AND EXISTS (SELECT 1 FROM internal_accounts a WHERE a.customer_id = c.id)`,
      ),
    ).toEqual(['unpinned']);
    expect(rules(`SELECT * FROM customers c JOIN internal_accounts a ON a.customer_id = c.id`)).toEqual([
      'unpinned',
      'unpinned',
      'join-not-on-platform',
    ]);
    expect(rules(`INSERT INTO cards (id, status) VALUES ($1, $2)`)).toEqual(['insert-without-platform']);
    expect(rules(`INSERT INTO cards (id, platform_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`)).toEqual([
      'conflict-target-without-platform',
    ]);
    expect(
      rules(
        `WITH RECURSIVE r AS (SELECT id FROM cards WHERE platform_id = $1 UNION ALL SELECT id FROM r) SELECT * FROM r`,
      ),
    ).toEqual(['recursive-cte']);
  });

  it('lets a listed cross-shard statement read, never lock, across shards', () => {
    expect(rules(`SELECT DISTINCT platform_id FROM cards /* cross-shard: due-cards */`)).toEqual([]);
    expect(rules(`SELECT * FROM cards /* cross-shard: due-cards */ FOR UPDATE SKIP LOCKED`)).toEqual([
      'lock-across-shards',
    ]);
    expect(rules(`SELECT * FROM cards /* cross-shard: nobody-listed-this */`)).toEqual(['unknown-cross-shard-tag']);
  });
});

describe('a table distributed by a column of its own', () => {
  const chained: DistributionMap = {
    ...map,
    tables: { ...map.tables, audit_events: { kind: 'distributed', reason: '', column: 'chain' } },
  };
  const check = (sql: string) => analyze(sql, chained).findings.map((f) => f.rule);
  it('is pinned by that column, not by platform_id', () => {
    expect(check(`SELECT * FROM audit_events WHERE chain = $1 AND seq > $2`)).toEqual([]);
    expect(check(`SELECT * FROM audit_events WHERE platform_id = $1`)).toEqual(['unpinned']);
    expect(check(`INSERT INTO audit_events (id, chain) VALUES ($1, $2)`)).toEqual([]);
    expect(check(`INSERT INTO audit_events (id, platform_id) VALUES ($1, $2)`)).toEqual(['insert-without-platform']);
  });
});
