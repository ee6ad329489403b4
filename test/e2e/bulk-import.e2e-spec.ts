import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { BulkImportService } from '../../src/bulk-import/bulk-import.service.js';
import { recordedEvents } from '../support/events.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Rows of the large-file test (the figure: BULK_IMPORT_ROWS=100000). */
const LARGE_ROWS = Number(process.env.BULK_IMPORT_ROWS ?? 400);

const HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName,businessTaxId,businessIncorporatedOn';

interface Job {
  id: string;
  status: string;
  progress: { total: number; processed: number; successful: number; failed: number };
  errors: Array<{ correlationId: string; code: string; message: string }>;
  completedAt?: string;
}

function uploadCsv(app: TestApp, p: TestPlatform, csv: string | Buffer) {
  return app.http
    .post(`${V}/customers/bulk/csv`)
    .set('Authorization', p.authorization)
    .attach('file', Buffer.from(csv), { filename: 'customers.csv', contentType: 'text/csv' });
}

/** Waits for this app's run of the job to end, then answers GET /customers/bulk/jobs/{jobId}. */
async function finished(app: TestApp, p: TestPlatform, jobId: string): Promise<Job> {
  await app.app.get(BulkImportService).settled(jobId.split(':')[1]);
  const res = await p.on(app).get(`/customers/bulk/jobs/${jobId}`);
  expect(res.status).toBe(200);
  return res.body as Job;
}

const countCustomers = async (p: TestPlatform, prefix: string) => {
  const [row] = await t.app
    .get(DataSource)
    .query<Array<{ n: string }>>(
      'SELECT count(*) AS n FROM customers WHERE platform_id = $1 AND platform_customer_id LIKE $2',
      [p.platformId.replace('Platform:', ''), `${prefix}%`],
    );
  return Number(row.n);
};

describe('POST /customers/bulk/csv', () => {
  it('imports the reference example, reports failed rows by platformCustomerId or row number, fires BULK_UPLOAD.COMPLETED', async () => {
    const p = await TestPlatform.create(t);
    const csv = [
      HEADER,
      'john.doe@uma.domain.com,c-1,INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US,,',
      'acme@uma.domain.com,c-2,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,,Acme Inc,47-1234567,2018-03-14',
      '"formula@uma.domain.com",c-3,INDIVIDUAL,"=cmd|\' /C calc\'!A0",1990-01-15,1 Main,Austin,TX,78701,US,,',
      'bad@uma.domain.com,c-4,INDIVIDUAL,Bad Date,1990-02-31,1 Main,Austin,TX,78701,US,,',
      ',,ALIEN,,,,,,,,,',
    ].join('\n');
    const res = await uploadCsv(t, p, csv);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: 'PENDING' });
    const job = await finished(t, p, (res.body as { jobId: string }).jobId);
    expect(job.errors.map((e) => `${e.correlationId} ${e.code}`)).toEqual(['c-4 INVALID_INPUT', '5 INVALID_INPUT']);
    expect(job).toMatchObject({
      status: 'COMPLETED',
      progress: { total: 5, processed: 5, successful: 3, failed: 2 },
      completedAt: expect.any(String),
    });
    expect(job.errors.map((e) => [e.correlationId, e.code])).toEqual([
      ['c-4', 'INVALID_INPUT'],
      ['5', 'INVALID_INPUT'],
    ]);
    const events = await recordedEvents(p, 'BULK_UPLOAD.COMPLETED');
    expect(events.map((e) => e.data)).toEqual([job]);
    // the formula is stored as text, never evaluated
    const list = await p.get('/customers?platformCustomerId=c-3');
    expect((list.body as { data: Array<{ fullName: string; umaAddress: string }> }).data[0]).toMatchObject({
      fullName: "=cmd|' /C calc'!A0",
      umaAddress: '$formula@uma.domain.com',
    });

    // the same file again: nobody is created twice
    const again = await finished(t, p, ((await uploadCsv(t, p, csv)).body as { jobId: string }).jobId);
    expect(again.progress).toEqual({ total: 5, processed: 5, successful: 3, failed: 2 });
    expect(await countCustomers(p, 'c-')).toBe(3);
  });

  it('refuses an unparseable CSV, a non-multipart body and a declared 1 GB upload, storing nothing', async () => {
    const p = await TestPlatform.create(t);
    const bad = await uploadCsv(t, p, `${HEADER}\n"unclosed,quote\n`);
    expect(expectError(bad, 400, 'INVALID_INPUT').details).toMatchObject({ errors: [{ field: 'file' }] });
    expectError(await uploadCsv(t, p, HEADER), 400, 'INVALID_INPUT');
    expectError(await p.post('/customers/bulk/csv', { file: 'x' }), 400, 'INVALID_REQUEST_FORMAT');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `${V}/customers/bulk/csv`,
          method: 'POST',
          headers: {
            Authorization: p.authorization,
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': String(1024 ** 3),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(400);
    const [jobs] = await t.app
      .get(DataSource)
      .query<Array<{ n: string }>>('SELECT count(*) AS n FROM bulk_import_jobs WHERE platform_id = $1', [
        p.platformId.replace('Platform:', ''),
      ]);
    expect(Number(jobs.n)).toBe(0);
    expectError(
      await p.get('/customers/bulk/jobs/Job:00000000-0000-7000-8000-000000000000'),
      404,
      'BULK_UPLOAD_JOB_NOT_FOUND',
    );
  });

  it("is 404 for another platform's job", async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const res = await uploadCsv(
      t,
      p,
      `${HEADER}\nx@uma.domain.com,o-1,INDIVIDUAL,X Y,1990-01-15,1 Main,Austin,TX,78701,US,,`,
    );
    const jobId = (res.body as { jobId: string }).jobId;
    await finished(t, p, jobId);
    expectError(await other.get(`/customers/bulk/jobs/${jobId}`), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
  });

  it(`streams ${LARGE_ROWS} rows in bounded memory; a restart mid-import resumes without duplicates`, async () => {
    const first = await startTestApp();
    const p = await TestPlatform.create(first);
    const prefix = `big-${p.platformId.slice(-12)}-`;
    const lines = [HEADER];
    for (let i = 1; i <= LARGE_ROWS; i++)
      lines.push(`,${prefix}${i},INDIVIDUAL,Person ${i},1990-01-15,${i} Main St,Austin,TX,78701,US,,`);
    const csv = Buffer.from(lines.join('\n'));
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
    const started = performance.now();
    const res = await first.http
      .post(`${V}/customers/bulk/csv`)
      .set('Authorization', p.authorization)
      .attach('file', csv, { filename: 'big.csv', contentType: 'text/csv' });
    const staged = performance.now() - started;
    clearInterval(sampler);
    expect(res.status).toBe(202);
    const jobId = (res.body as { jobId: string }).jobId;
    // "restart": the first app stops mid-import (its current batch commits), a second one resumes
    await first.close();
    const second = await startTestApp();
    try {
      const job = await finished(second, p, jobId);
      expect(job.status).toBe('COMPLETED');
      expect(job.progress).toEqual({ total: LARGE_ROWS, processed: LARGE_ROWS, successful: LARGE_ROWS, failed: 0 });
      expect(await countCustomers(p, prefix)).toBe(LARGE_ROWS);
      const total = performance.now() - started;
      // figures for docs/onboarding.md (no threshold: speed lives in bench/)
      console.log(
        `bulk import: ${LARGE_ROWS} rows staged in ${(staged / 1000).toFixed(1)} s, imported in ${(total / 1000).toFixed(1)} s; ` +
          `CSV ${(csv.length / 2 ** 20).toFixed(1)} MB; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB before, peak ${(rssPeak / 2 ** 20).toFixed(0)} MB while staging (test and app share the process)`,
      );
    } finally {
      await second.close();
    }
  }, 300_000); // each row creates a customer and its accounts: minutes on a loaded machine
});
