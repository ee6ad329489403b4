import http from 'node:http';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { StablecoinOperationsWorker } from '../../src/stablecoins/stablecoin-operations.worker.js';
import { ChildServer, killMidBurst } from '../support/child-server.js';
import { achMint, issuer, type Json } from '../support/stablecoins.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * kill -9 during a burst of mints (issue #39, the harness of payments-race.e2e-spec.ts): a real
 * server (`dist/src/main.js`) is killed with SIGKILL while six clients create mints;
 * after a restart every acknowledged mint is served (a retry with its Idempotency-Key replays it),
 * none was created twice, every one completes, and the supply is exactly what completed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function call(
  port: number,
  agent: http.Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: object,
): Promise<{ status: number; body: Json; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request({
      host: '127.0.0.1',
      port,
      agent,
      method,
      path,
      headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : {}) as Json, headers: res.headers }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

it('kill -9 during a burst of mints keeps every acknowledged operation, creates none twice, and the supply is exact', async () => {
  const p = await TestPlatform.create(t);
  const { coin, wallet, bank } = await issuer(p);
  const requests = Array.from({ length: 60 }, (_, i) => ({
    key: `crash-${i}`,
    body: achMint(bank, wallet, String((i + 1) * 1_000_000)),
  }));
  const mintPath = `${V}/stablecoins/${coin.id as string}/mints`;
  const first = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
  const { port } = await first.listening();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const acknowledged = new Map(
    await killMidBurst(first, requests, async (request) => {
      const res = await call(
        port,
        agent,
        'POST',
        mintPath,
        { authorization: p.authorization, 'idempotency-key': request.key },
        request.body,
      );
      return res.status === 201 ? ([request.key, res.body.id as string] as const) : null;
    }),
  );
  agent.destroy();
  expect(acknowledged.size).toBeGreaterThanOrEqual(15);

  const second = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
  try {
    const { port: again } = await second.listening();
    const agent2 = new http.Agent({ keepAlive: true, maxSockets: 4 });
    // Every request retried with its key: an acknowledged one replays its operation, any other
    // (lost with the process, or committed but never answered) is created once now.
    const ids = new Map<string, string>();
    for (const request of requests) {
      const res = await call(
        again,
        agent2,
        'POST',
        mintPath,
        {
          authorization: p.authorization,
          'idempotency-key': request.key,
        },
        request.body,
      );
      expect(res.status).toBe(201);
      ids.set(request.key, res.body.id as string);
      if (acknowledged.has(request.key)) {
        expect(res.headers['idempotent-replayed']).toBe('true');
        expect(res.body.id).toBe(acknowledged.get(request.key));
      }
    }
    expect(new Set(ids.values()).size).toBe(60);
    // A worker (this file's app: the child servers run ROLE=api, as every test app on the shared
    // database) completes every one.
    const worker = t.app.get(StablecoinOperationsWorker);
    let listed: Json[] = [];
    for (let i = 0; i < 60; i++) {
      await worker.runOnce({ platformId: parseId('Platform', p.platformId)! });
      const page = await call(again, agent2, 'GET', `${mintPath.replace('/mints', '/operations')}?limit=100`, {
        authorization: p.authorization,
      });
      listed = page.body.data as Json[];
      if (listed.length === 60 && listed.every((o) => o.status === 'COMPLETED')) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(listed).toHaveLength(60);
    const stuck = listed.filter((o) => o.status !== 'COMPLETED').map((o) => `${o.id as string} ${o.status as string}`);
    const errors = second.lines.filter(
      (l) => (l as { level?: number }).level !== undefined && (l as { level: number }).level >= 50,
    );
    expect({ stuck, errors }).toEqual({ stuck: [], errors: [] });
    agent2.destroy();
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
  const db = t.app.get(DataSource);
  const [{ s }] = await db.query<Array<{ s: string }>>(
    `SELECT COALESCE(SUM(amount), 0)::text AS s FROM ledger_entries
      WHERE platform_id = $1 AND system_account = 'STABLECOIN_SUPPLY' AND currency = 'ACME'`,
    [parseId('Platform', p.platformId)],
  );
  expect(s).toBe(String(((60 * 61) / 2) * 1_000_000));
  expect(await verifyLedger(db, parseId('Platform', p.platformId))).toMatchObject({ ok: true });
}, 300_000);
