import pg from 'pg';
import { startEmbeddedDatabase, EmbeddedDatabase } from '../../../src/database/embedded.js';

/** Many pg connections on PGlite's single session: every exchange and transaction must stay whole. */
let db: EmbeddedDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await startEmbeddedDatabase('memory://', 16);
  pool = new pg.Pool({ connectionString: db.url, max: 8 });
  await pool.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
  await pool.query('INSERT INTO counter VALUES (1, 0)');
});
afterAll(async () => {
  await pool.end();
  await db.stop();
});

it('concurrent parameterised queries outside transactions do not interleave', async () => {
  const results = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const r = await pool.query<{ v: string }>('SELECT $1::text || $2::text AS v', [`a${i}`, `b${i}`]);
      return r.rows[0].v === `a${i}b${i}`;
    }),
  );
  expect(results.every(Boolean)).toBe(true);
});

it('concurrent read-modify-write transactions lose no update, and failed ones roll back cleanly', async () => {
  await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const { rows } = await c.query<{ n: number }>('SELECT n FROM counter WHERE id = $1 FOR UPDATE', [1]);
        await c.query('UPDATE counter SET n = $1 WHERE id = $2', [rows[0].n + 1, 1]);
        if (i % 4 === 0) await c.query('SELECT 1/0'); // fails: the whole transaction must roll back
        await c.query('COMMIT');
      } catch {
        await c.query('ROLLBACK');
      } finally {
        c.release();
      }
    }),
  );
  const { rows } = await pool.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
  expect(rows[0].n).toBe(30);
});

it('a connection that drops mid-transaction does not block the others', async () => {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  await c.query('BEGIN');
  await c.query('UPDATE counter SET n = n + 1000 WHERE id = 1');
  c.on('error', () => undefined);
  (c as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  const { rows } = await pool.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
  expect(rows[0].n).toBe(30);
});

it('stops cleanly while a client is mid-transaction: no late callback reaches the closed engine', async () => {
  const failures: unknown[] = [];
  const onFailure = (error: unknown) => failures.push(error);
  process.on('unhandledRejection', onFailure);
  process.on('uncaughtException', onFailure);
  try {
    const other = await startEmbeddedDatabase('memory://', 4);
    const client = new pg.Client({ connectionString: other.url });
    client.on('error', () => undefined); // the server goes away under it, by design
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT 1');
    await other.stop();
    // Let the sockets' queued close callbacks run.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([]);
  } finally {
    process.off('unhandledRejection', onFailure);
    process.off('uncaughtException', onFailure);
  }
});
