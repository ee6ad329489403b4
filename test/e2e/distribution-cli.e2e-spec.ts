import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { loadDistributionMap, readCatalog, tableOf, type DistributionMap } from '../../src/database/distribution.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { TEST_WEBHOOK_KEY } from '../support/test-app.js';

/**
 * `node dist/src/cli.js distribution` (the built command, as an operator runs it) on a migrated
 * database of the run's engine: the Citus script names every table of the map once, in the order
 * Citus accepts (reference tables, then the distributed ones co-located, then the local ones; a
 * table after the tables its foreign keys reference), and `--apply` on a server without Citus
 * fails saying so and changes nothing. docs/scale-out.md.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

async function cli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/src/cli.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', WEBHOOK_KEY_ENCRYPTION_KEY: TEST_WEBHOOK_KEY, SANDBOX: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The script's statements (comments dropped). */
const statementsOf = (script: string) =>
  script
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('--'))
    .map((line) => line.trim());

describe('cli distribution', () => {
  let db: IsolatedDatabase;
  let map: DistributionMap;
  let printed: Awaited<ReturnType<typeof cli>>;

  beforeAll(async () => {
    db = await isolatedDatabase();
    map = loadDistributionMap();
    printed = await cli(['distribution'], { DATABASE_URL: db.url });
  });
  afterAll(async () => {
    await db.close();
  });

  it('prints every table of the map once, reference before distributed before local, co-located, in foreign-key order', async () => {
    const { code, stdout, stderr } = printed;
    expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) as string });
    const statements = statementsOf(stdout);
    expect(statements[0]).toBe('CREATE EXTENSION IF NOT EXISTS citus;');
    const rest = statements.slice(1);
    const tables = rest.map(tableOf);
    expect(tables).not.toContain(null);
    expect([...tables].sort()).toEqual(Object.keys(map.tables).sort()); // each exactly once

    // The kinds in blocks: reference, distributed, local; each statement the one its kind calls for.
    const kinds = tables.map((t) => map.tables[t!].kind);
    const rank = { reference: 0, distributed: 1, local: 2 };
    expect(kinds.map((k) => rank[k])).toEqual([...kinds.map((k) => rank[k])].sort((a, b) => a - b));
    const distributed = rest.filter((_, i) => kinds[i] === 'distributed');
    const anchor = tableOf(distributed[0])!;
    const column = map.distributionColumn;
    expect(distributed[0]).toBe(`SELECT create_distributed_table('${anchor}', '${column}', colocate_with => 'none');`);
    for (const statement of distributed.slice(1)) {
      expect(statement).toBe(
        `SELECT create_distributed_table('${tableOf(statement)!}', '${column}', colocate_with => '${anchor}');`,
      );
    }
    rest.forEach((statement, i) => {
      const call = {
        reference: 'create_reference_table',
        distributed: 'create_distributed_table',
        local: 'citus_add_local_table_to_metadata',
      }[kinds[i]];
      expect(statement.startsWith(`SELECT ${call}('`)).toBe(true);
    });

    // Every table the database has is in the map, and every foreign key's parent comes first.
    const catalog = await readCatalog(db);
    expect(catalog.tables.filter((t) => !(t in map.tables))).toEqual([]);
    const position = new Map(tables.map((t, i) => [t!, i]));
    const late = catalog.foreignKeys
      .filter(({ child, parent }) => child !== parent && position.get(parent)! > position.get(child)!)
      .map(({ child, parent }) => `${child} -> ${parent}`);
    expect(late).toEqual([]);
    expect(catalog.foreignKeys.length).toBeGreaterThan(50);
  });

  it('--apply without the citus extension prints the script, says so, exits non-zero and changes nothing', async () => {
    const available = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'citus'`);
    expect(available.rows).toEqual([]); // the test engines have no Citus (it is not installable here)
    const snapshot = async () => ({
      extensions: (await db.query('SELECT extname FROM pg_extension ORDER BY 1')).rows,
      catalog: await readCatalog(db),
      constraints: (await db.query(`SELECT conname, contype FROM pg_constraint ORDER BY 1, 2`)).rows,
    });
    const before = await snapshot();
    const applied = await cli(['distribution', '--apply'], { DATABASE_URL: db.url });
    expect(applied.code).toBe(3);
    expect(applied.stderr).toMatch(/citus is not available on this server.*Nothing was changed/);
    expect(applied.stdout).toBe(printed.stdout);
    expect(await snapshot()).toEqual(before);
  });

  it('--help describes it; an unknown option is a usage error', async () => {
    const help = await cli(['distribution', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('distribution [--apply]');
    const wrong = await cli(['distribution', '--aply'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--aply'");
  }, 300_000); // two CLI starts (each loads the whole app's modules): slow on a loaded machine
});
