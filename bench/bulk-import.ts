/**
 * The bulk customer import at scale (issue #32): `node dist/bench/bulk-import.js [--rows N]`
 * (build first; default 100,000 rows; with DATABASE_URL on a scratch PostgreSQL database, else on
 * the embedded engine). The CSV is generated as it is sent (a chunked multipart body: the bench
 * never holds the file), staged by `POST /customers/bulk/csv`, then imported in the background;
 * the bench awaits the job (BulkImportService.settled) and reports rows/s for staging and for the
 * import, and the process's peak RSS (VmHWM: the app and the bench share the process, so it is an
 * upper bound of the app's). docs/performance.md keeps the figures.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { BulkImportService } from '../src/bulk-import/bulk-import.service.js';
import { benchPlatform, scratchDatabase, startBenchApp } from './support.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const ROWS = Number(option('--rows', '100000'));

const HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,businessLegalName,businessTaxId,businessIncorporatedOn';

/** Row i of the generated file: mostly individuals, every tenth a business, every 500th invalid. */
function row(i: number): string {
  if (i % 500 === 499) return `,bench-${i},INDIVIDUAL,Bad Country,1990-01-15,1 Main St,Austin,TX,78701,ZZ,,,`;
  if (i % 10 === 9)
    return `,bench-${i},BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,Bench Business ${i} Inc,47-${String(i).padStart(7, '0')},2018-03-14`;
  return `,bench-${i},INDIVIDUAL,Customer ${i},1990-01-15,${i} Main St,San Francisco,CA,94105,US,,,`;
}

/** The multipart body, generated lazily in 1,000-row chunks. */
function* body(boundary: string): Generator<Buffer> {
  yield Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="customers.csv"\r\nContent-Type: text/csv\r\n\r\n${HEADER}\n`,
  );
  for (let start = 0; start < ROWS; start += 1000) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(ROWS, start + 1000); i++) lines.push(row(i));
    yield Buffer.from(`${lines.join('\n')}\n`);
  }
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

const peakRssMb = () => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
};
const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024);

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const scratch = adminUrl ? await scratchDatabase(adminUrl, 'bench_bulk') : null;
  const app = await startBenchApp(scratch?.url);
  try {
    const platform = await benchPlatform(app);
    const rssBefore = rssMb();
    let rssPeakSampled = rssBefore;
    const sampler = setInterval(() => (rssPeakSampled = Math.max(rssPeakSampled, rssMb())), 250);
    const boundary = `bench${Date.now()}`;
    const t0 = performance.now();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(`${app.baseUrl}/customers/bulk/csv`, {
        method: 'POST',
        headers: { Authorization: platform.authorization, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      Readable.from(body(boundary)).pipe(req);
    });
    const staged = performance.now();
    if (answer.status !== 202) throw new Error(`upload: ${answer.status} ${answer.text}`);
    const jobId = (JSON.parse(answer.text) as { jobId: string }).jobId;
    const rssAfterStaging = rssPeakSampled;
    await app.app.get(BulkImportService).settled(jobId.split(':')[1]);
    const imported = performance.now();
    clearInterval(sampler);
    const [job] = await app.app
      .get(DataSource)
      .query<Array<{ status: string; total: number; successful: number; failed: number }>>(
        'SELECT status, total, successful, failed FROM bulk_import_jobs WHERE id = $1',
        [jobId.split(':')[1]],
      );
    const stageS = (staged - t0) / 1000;
    const importS = (imported - staged) / 1000;
    const lines = [
      `engine: ${app.engine}, rows: ${ROWS}, job ${job.status}: ${job.successful} imported, ${job.failed} failed (of ${job.total})`,
      `staging: ${stageS.toFixed(1)} s, ${Math.round(ROWS / stageS)} rows/s`,
      `import: ${importS.toFixed(1)} s, ${Math.round(ROWS / importS)} rows/s (${((importS * 1000) / ROWS).toFixed(2)} ms/row)`,
      `RSS: ${rssBefore} MB before, ${rssAfterStaging} MB peak while staging, ${rssPeakSampled} MB peak overall (sampled every 250 ms); VmHWM ${peakRssMb()} MB`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await app.close();
    await scratch?.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
