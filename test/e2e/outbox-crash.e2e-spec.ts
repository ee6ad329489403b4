import { SystemClock } from '../../src/common/clock.js';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { OutboxService, WrittenEvent } from '../../src/outbox/outbox.service.js';
import { platformWithEndpoint, stubCardEvent } from '../support/events.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TEST_WEBHOOK_KEY, TestApp, TestPlatform } from '../support/test-app.js';
import { ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

/** Real elapsed time (these tests measure a real process and real leases). */
const wallClock = new SystemClock();

/**
 * Real worker processes (`node dist/src/main.js`, ROLE=worker) on a database of this file's own:
 * what they log when a delivery fails, and what happens when one is killed with SIGKILL in the
 * middle of a burst. Nothing sleeps: tests await receipts and the workers' log lines.
 */
const MAIN_JS = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

let db: IsolatedDatabase;
let api: TestApp;
const children: WorkerProcess[] = [];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = await isolatedDatabase();
  api = await startTestApp({}, { databaseUrl: db.url });
});
afterAll(async () => {
  for (const child of children) await child.stop();
  await api.close();
  for (const r of receivers) await r.stop();
  await db.close();
});

type LogLine = Record<string, unknown> & { msg?: string };

/** A worker process; its stdout (pino JSON lines) is kept and can be awaited line by line. */
class WorkerProcess {
  readonly lines: LogLine[] = [];
  readonly output: string[] = [];
  private waiters: Array<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];

  private constructor(readonly child: ChildProcess) {}

  static async start(env: Record<string, string>): Promise<WorkerProcess> {
    const child = spawn(process.execPath, [MAIN_JS], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        ROLE: 'worker',
        PORT: '0',
        LOG_LEVEL: 'info',
        DB_POOL_SIZE: '4',
        WEBHOOK_KEY_ENCRYPTION_KEY: TEST_WEBHOOK_KEY,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        SANDBOX: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess(child);
    children.push(worker);
    const stderr: string[] = [];
    child.stderr.on('data', (c: Buffer) => stderr.push(c.toString()));
    createInterface({ input: child.stdout }).on('line', (text) => worker.onLine(text));
    const exited = once(child, 'exit').then(([code]) => {
      throw new Error(`worker exited with ${String(code)}: ${stderr.join('')}`);
    });
    await Promise.race([worker.waitForLine((l) => l.msg === 'outbox worker started'), exited]);
    exited.catch(() => undefined); // it may exit later (killed by a test)
    return worker;
  }

  waitForLine(match: (l: LogLine) => boolean): Promise<LogLine> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** SIGKILL: no shutdown hook runs, nothing is given back. */
  async kill(): Promise<void> {
    const exit = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exit;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exit = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exit;
  }

  private onLine(text: string): void {
    this.output.push(text);
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    this.lines.push(line);
    const matched = this.waiters.filter((w) => w.match(line));
    this.waiters = this.waiters.filter((w) => !w.match(line));
    matched.forEach((w) => w.resolve(line));
  }
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

const platformAt = (r: WebhookReceiver): Promise<TestPlatform> => platformWithEndpoint(api, db, r.url);

function emit(p: TestPlatform, data: Record<string, unknown> = {}): Promise<WrittenEvent> {
  const platformId = parseId('Platform', p.platformId)!;
  return api.app
    .get(TransactionService)
    .run((m) =>
      api.app.get(OutboxService).write(m, stubCardEvent(platformId, { id: formatId('Card', newUuid()), ...data })),
    );
}

/** Waits until every id has arrived at least once; returns the receipts so far. */
async function allArrived(r: WebhookReceiver, ids: string[]): Promise<ReceivedWebhook[]> {
  const missing = () => ids.filter((id) => !r.received.some((w) => w.body.id === id)).length;
  while (missing() > 0) await r.waitFor(r.received.length + 1);
  return r.received.slice();
}

describe('worker processes', () => {
  it('log each failed attempt with the event id, attempt number and status; never a body or a secret', async () => {
    const r = await receiver();
    const p = await platformAt(r);
    const secret = (await p.get('/config')).body.webhookSecret as string;
    expect(secret).toMatch(/^whsec_/);
    r.respondWith({ status: 503, body: 'RESPONSE-BODY-MARKER' }); // then 200
    const ev = await emit(p, { note: 'REQUEST-BODY-MARKER' });
    const worker = await WorkerProcess.start({ OUTBOX_POLL_INTERVAL_MS: '100' });

    const failed = await worker.waitForLine((l) => l.msg === 'webhook delivery failed');
    expect(failed).toMatchObject({
      level: 40,
      event: ev.envelope.id,
      platform: p.platformId,
      type: 'CARD.STATUS_CHANGE',
      attempt: 1,
      status: 503,
      error: null,
      nextAttemptAt: expect.any(String),
    });
    await r.nth(2); // the retry, delivered
    await worker.stop(); // SIGTERM: records what it sent, then exits
    const all = worker.output.join('\n');
    for (const never of ['RESPONSE-BODY-MARKER', 'REQUEST-BODY-MARKER', secret, 'whsec_', r.url]) {
      expect(all).not.toContain(never);
    }
    expect(worker.lines.filter((l) => l.msg === 'webhook delivery failed')).toHaveLength(1);
  });

  it('kill -9 mid-burst: the other worker resumes the dead one’s events within the lease plus a poll interval, none lost', async () => {
    const leaseMs = 3000;
    const pollMs = 500;
    const cap = 4;
    const env = {
      OUTBOX_LEASE_MS: String(leaseMs),
      OUTBOX_POLL_INTERVAL_MS: String(pollMs),
      OUTBOX_ENDPOINT_CONCURRENCY: String(cap),
    };
    const r = await receiver();
    const p = await platformAt(r);
    const burst = 200;
    const answered = 60; // the receiver answers this many at once, then holds every request
    r.respondWith(...Array.from({ length: answered }, () => ({ status: 200 })));
    let unblock!: () => void;
    r.setDefault({ status: 200, after: new Promise<void>((resolve) => (unblock = resolve)) });
    const events: WrittenEvent[] = [];
    for (let i = 0; i < burst; i += 50) {
      events.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => emit(p, { n: i + j })))));
    }

    const first = await WorkerProcess.start(env);
    await r.nth(answered + cap); // `cap` requests out and held: its lane is full, it takes nothing more
    const heldByFirst = (
      await db.query(`SELECT id, lock_token FROM outbox_events WHERE status = 'PENDING' AND lock_token IS NOT NULL`)
    ).rows as Array<{ id: string; lock_token: string }>;
    // A second worker is already running when the first dies, as replicas are (its own requests are
    // held too until the kill), so what is measured is the lease, not how long a process takes to boot.
    const second = await WorkerProcess.start(env);
    const killedAt = wallClock.now().getTime();
    await first.kill();
    const exitedAt = wallClock.now().getTime();
    r.setDefault({ status: 200 });
    unblock();

    // What the dead worker held: leased under its tokens, never recorded.
    const stranded = (
      await db.query(
        `SELECT e.id, e.locked_until FROM outbox_events e
         JOIN unnest($1::uuid[], $2::uuid[]) AS v(id, token) ON v.id = e.id AND v.token = e.lock_token
         WHERE e.status = 'PENDING'`,
        [heldByFirst.map((h) => h.id), heldByFirst.map((h) => h.lock_token)],
      )
    ).rows as Array<{ id: string; locked_until: Date }>;
    expect(stranded.length).toBeGreaterThanOrEqual(cap);
    for (const s of stranded) expect(s.locked_until.getTime()).toBeLessThanOrEqual(exitedAt + leaseMs);
    // It renewed what it held (the events it had claimed ahead included) and never lost a lease.
    expect(first.lines.filter((l) => /lease/.test(l.msg ?? '') && l.level !== 30)).toEqual([]);

    const ids = events.map((e) => e.envelope.id);
    const received = await allArrived(r, ids);
    await second.stop(); // SIGTERM: records what it sent, then exits
    const attempts = (
      await db.query(
        `SELECT event_id, min(attempted_at) AS first FROM outbox_attempts WHERE event_id = ANY($1::uuid[]) GROUP BY event_id`,
        [stranded.map((s) => s.id)],
      )
    ).rows as Array<{ event_id: string; first: Date }>;
    expect(attempts).toHaveLength(stranded.length); // the dead worker's attempts were never recorded
    for (const a of attempts) {
      // Nobody took an event before its lease ran out.
      expect(a.first.getTime()).toBeGreaterThanOrEqual(
        stranded.find((s) => s.id === a.event_id)!.locked_until.getTime(),
      );
    }
    const resumedMs = Math.min(...attempts.map((a) => a.first.getTime())) - killedAt;
    const lost = ids.filter((id) => !received.some((w) => w.body.id === id)).length;
    const twice = received.length - new Set(received.map((w) => w.body.id)).size;
    console.log(
      `kill -9 mid-burst: ${burst} events, ${lost} lost, ${twice} delivered twice, ${stranded.length} held by the dead worker; ` +
        `its events resumed ${resumedMs} ms after the kill (lease ${leaseMs} ms, poll ${pollMs} ms)`,
    );
    expect(lost).toBe(0);
    expect(resumedMs).toBeLessThan(leaseMs + pollMs);
    const view = await p.get('/webhook-events?status=DELIVERED&limit=1');
    expect(view.body.totalCount).toBe(burst);
  }, 120_000);
});
