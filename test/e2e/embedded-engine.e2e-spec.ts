import pg from 'pg';
import { startEmbeddedDatabase, EmbeddedDatabase } from '../../src/database/embedded.js';

/**
 * The embedded engine serves many connections on one PGlite session. pglite-socket alone keeps a
 * connection's protocol messages together only inside a transaction, so an autocommit
 * parameterized query (Parse, Bind, Execute, Sync) of one connection could be split by another
 * connection's transaction, which then hangs one of them. An API writing in transactions beside
 * an outbox worker's autocommit claims ran into it; `keepExtendedQueriesTogether` fixes it.
 */
let db: EmbeddedDatabase;
beforeAll(async () => {
  db = await startEmbeddedDatabase('memory://', 16);
});
afterAll(() => db.stop());

it('serves concurrent transactions and autocommit parameterized queries, each connection its own answers', async () => {
  const clients = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      return c;
    }),
  );
  try {
    const results = await Promise.all(
      clients.map(async (c, ci) => {
        let ok = 0;
        for (let qi = 0; qi < 40; qi++) {
          // Each connection has its own statement (text and parameter count); half use transactions.
          const params = Array.from({ length: ci + 1 }, (_, k) => ci * 1000 + qi + k);
          const sql = `SELECT ${params.map((_, k) => `$${k + 1}::int`).join(' + ')} AS total, ${ci} AS client`;
          if (ci % 2 === 0) await c.query('BEGIN');
          const res = await c.query<{ total: number; client: number }>(sql, params);
          if (ci % 2 === 0) await c.query('COMMIT');
          if (res.rows[0].client === ci && res.rows[0].total === params.reduce((a, b) => a + b, 0)) ok++;
        }
        return ok;
      }),
    );
    expect(results).toEqual([40, 40, 40, 40, 40, 40]);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}, 20_000);
