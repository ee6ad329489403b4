import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  distributionScript,
  formatScript,
  loadDistributionMap,
  tableOf,
  type DistributionMap,
} from '../../../src/database/distribution.js';

/**
 * The distribution script's generator (src/database/distribution.ts) on the committed map and on
 * small made-up ones, and docs/scale-out.md against the map. The command itself, on a migrated
 * database of each engine: test/e2e/distribution-cli.e2e-spec.ts.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

const small: DistributionMap = {
  distributionColumn: 'platform_id',
  tables: {
    accounts: { kind: 'distributed', reason: 'r' },
    entries: { kind: 'distributed', reason: 'r' },
    customers: { kind: 'distributed', reason: 'r' },
    platforms: { kind: 'reference', reason: 'r' },
    currencies: { kind: 'reference', reason: 'r' },
    migrations: { kind: 'local', reason: 'r' },
  },
  crossShard: { 'outbox-due-platforms': { feature: 'multi-shard SELECT', reason: 'which platforms have due events' } },
};

describe('the distribution map', () => {
  it('loads: every table a plain name with a kind and a reason', () => {
    const map = loadDistributionMap();
    expect(map.distributionColumn).toBe('platform_id');
    expect(Object.keys(map.tables).length).toBeGreaterThan(60);
    expect(Object.values(map.tables).filter((t) => t.kind === 'reference').length).toBeGreaterThan(0);
    expect(map.tables.platforms.kind).toBe('reference');
  });

  it('refuses a map with an unknown kind, a missing reason or a table name that is not an identifier', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'distribution-')), 'map.json');
    writeFileSync(
      file,
      JSON.stringify({
        distributionColumn: 'platform_id',
        tables: {
          a: { kind: 'sharded', reason: 'x' },
          b: { kind: 'local' },
          "c'); DROP TABLE d; --": { kind: 'local', reason: 'x' },
        },
      }),
    );
    expect(() => loadDistributionMap(file)).toThrow(/a: kind must be one of.*b: no reason.*not a plain table name/);
  });
});

describe('distributionScript', () => {
  it("without a catalog: the extension, reference, distributed (co-located with the first), local, in the map's order", () => {
    const script = distributionScript(small);
    expect(script.orderedBy).toBe('map');
    expect(script.anchor).toBe('accounts');
    expect(script.statements).toEqual([
      'CREATE EXTENSION IF NOT EXISTS citus;',
      "SELECT create_reference_table('platforms');",
      "SELECT create_reference_table('currencies');",
      "SELECT create_distributed_table('accounts', 'platform_id', colocate_with => 'none');",
      "SELECT create_distributed_table('entries', 'platform_id', colocate_with => 'accounts');",
      "SELECT create_distributed_table('customers', 'platform_id', colocate_with => 'accounts');",
      "SELECT citus_add_local_table_to_metadata('migrations');",
    ]);
    expect(script.statements.slice(1).map(tableOf)).toEqual([
      'platforms',
      'currencies',
      'accounts',
      'entries',
      'customers',
      'migrations',
    ]);
  });

  it('with a catalog: a table after the tables it references; the anchor is the first distributed table placed', () => {
    const script = distributionScript(small, {
      tables: Object.keys(small.tables),
      foreignKeys: [
        { child: 'entries', parent: 'accounts' },
        { child: 'accounts', parent: 'customers' },
        { child: 'platforms', parent: 'currencies' },
        { child: 'entries', parent: 'entries' }, // self-reference: no constraint on the order
        { child: 'customers', parent: 'platforms' },
      ],
    });
    expect(script.warnings).toEqual([]);
    expect(script.order).toEqual({
      reference: ['currencies', 'platforms'],
      distributed: ['customers', 'accounts', 'entries'],
      local: ['migrations'],
    });
    expect(script.anchor).toBe('customers');
    expect(script.statements).toContain(
      "SELECT create_distributed_table('entries', 'platform_id', colocate_with => 'customers');",
    );
  });

  it('warns about cycles, keys Citus refuses, and tables on one side only', () => {
    const script = distributionScript(small, {
      tables: ['accounts', 'entries', 'customers', 'platforms', 'currencies', 'migrations', 'extra'],
      foreignKeys: [
        { child: 'accounts', parent: 'entries' },
        { child: 'entries', parent: 'accounts' },
        { child: 'platforms', parent: 'customers' },
        { child: 'customers', parent: 'migrations' },
      ],
    });
    expect(script.warnings).toEqual([
      'in the database, not in the map: extra',
      'platforms (reference) has a foreign key to customers (distributed), which Citus refuses',
      'customers (distributed) has a foreign key to migrations (local), which Citus refuses',
      'foreign key cycle: accounts placed before entries, which it references',
    ]);
    expect(script.order.distributed).toEqual(['customers', 'accounts', 'entries']);
    expect(distributionScript(small, { tables: ['platforms'], foreignKeys: [] }).warnings[0]).toBe(
      'in the map, not in the database (not migrated?): accounts, entries, customers, currencies, migrations',
    );
  });

  it('formats a psql script: comments name the parts and list the cross-shard statements', () => {
    const text = formatScript(small, distributionScript(small));
    const lines = text.trimEnd().split('\n');
    expect(lines.filter((l) => !l.startsWith('--'))).toEqual(distributionScript(small).statements);
    expect(text).toContain('-- Distributed tables (3) by platform_id, co-located with accounts.');
    expect(text).toContain('--   outbox-due-platforms: multi-shard SELECT; which platforms have due events');
  });
});

describe('docs/scale-out.md', () => {
  const doc = readFileSync(path.join(ROOT, 'docs/scale-out.md'), 'utf8');

  it('points at the map and the command', () => {
    expect(doc).toContain('](../src/database/distribution.json)');
    expect(doc).toContain('npm run --silent cli -- distribution');
  });

  it('names every reference and local table of the map', () => {
    const map = loadDistributionMap();
    const named = Object.entries(map.tables)
      .filter(([, t]) => t.kind !== 'distributed')
      .map(([table]) => table);
    expect(named.filter((table) => !doc.includes(`\`${table}\``))).toEqual([]);
  });
});
