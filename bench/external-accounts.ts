/**
 * POST /platform/external-accounts over HTTP at concurrency 8 for a fixed count (after a warm-up,
 * from a worker thread), against the same inserts done directly with pg in the same run. Prints requests/s, p50/p99 and the ratio.
 *   npm run bench:external-accounts            (embedded engine)
 *   DATABASE_URL=postgres://... npm run bench:external-accounts
 * Optional: COUNT (default 2000), CONCURRENCY (default 8).
 */
import pg from 'pg';
import { newUuid } from '../src/common/ids.js';
import { accountIdentity, exampleAccountInfo } from '../src/external-accounts/variants/index.js';
import { PlatformsService } from '../src/platforms/platforms.service.js';
import { Worker } from 'node:worker_threads';
import { LoadResult, runBounded } from './stats.js';
import { startBenchApp } from './support.js';

const COUNT = Number(process.env.COUNT ?? 2000);
const WARMUP = Math.min(500, COUNT);

/** The HTTP client runs in a worker thread so it does not share the service's event loop. */
function httpLoad(job: { url: string; authorization: string; count: number; concurrency: number; seedOffset: number }) {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(new URL('./http-load-worker.js', import.meta.url), { workerData: job });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
  });
}
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);

async function main() {
  const bench = await startBenchApp();
  try {
    const { platform, token } = await bench.app.get(PlatformsService).create('bench');
    const auth = `Basic ${Buffer.from(`${token.clientId}:${token.clientSecret}`).toString('base64')}`;
    const platformUuid = platform.id.split(':')[1];

    const load = (count: number, seedOffset: number) =>
      httpLoad({
        url: `${bench.baseUrl}/platform/external-accounts`,
        authorization: auth,
        count,
        concurrency: CONCURRENCY,
        seedOffset,
      });
    await load(WARMUP, 10 * COUNT + 1); // JIT and pool warm-up, not counted
    const http = await load(COUNT, 1);

    const pool = new pg.Pool({ connectionString: bench.databaseUrl, max: CONCURRENCY });
    const direct = await runBounded(COUNT, CONCURRENCY, async (i) => {
      const info = exampleAccountInfo('EUR_ACCOUNT', COUNT + i + 1);
      await pool.query(
        `INSERT INTO external_accounts (id, platform_id, customer_id, currency, status, beneficiary_verification_status,
           account_type, account_info, identity)
         VALUES ($1, $2, NULL, 'EUR', 'ACTIVE', 'PENDING', 'EUR_ACCOUNT', $3, $4)`,
        [newUuid(), platformUuid, JSON.stringify(info), accountIdentity(info)],
      );
    });
    await pool.end();

    const row = (name: string, r: typeof http) =>
      `${name.padEnd(28)} ${r.perSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms`;
    console.log(`external accounts: ${COUNT} creates at concurrency ${CONCURRENCY} on ${bench.engine}`);
    console.log(row('HTTP POST (full service)', http));
    console.log(row('direct pg INSERT', direct));
    console.log(`ratio direct/HTTP throughput: ${(direct.perSecond / http.perSecond).toFixed(2)}x`);
  } finally {
    await bench.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
