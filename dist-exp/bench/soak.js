/**
 * The soak: `npm run soak` (DATABASE_URL: PostgreSQL; SOAK_SECONDS, default 600).
 *
 * On a scratch database: the app (ROLE=api, in this process, as the bench runs it) and one outbox
 * worker process (ROLE=worker, `node dist/src/main.js`), the platform's webhook endpoint a local
 * receiver (test/support/webhook-receiver.ts). A steady mixed load at fixed modest rates (paced
 * loops, one request at a time per kind): card PATCH freeze/unfreeze, GET /cards/{id}, POST
 * /platform/external-accounts, card authorizations, agent quote+execute pairs. RSS of the api
 * (this process: the app and the load loops) and of the worker at the start, every minute and at
 * the end. Then the outbox drains and the run checks: no 5xx, every event delivered exactly once
 * (duplicates listed with their cause), none left undelivered. Prints a report and rewrites the
 * `## Soak` section of bench/RESULTS.md (after `## Notes`, which the runner keeps).
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { TransactionService } from '../src/database/transaction.service.js';
import { exampleAccountInfo } from '../src/external-accounts/variants/index.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import { benchAgent } from './suites/agents.js';
import { benchCards } from './suites/card-authorizations.js';
import { startWorkers, stopWorkers } from './suites/outbox.js';
import { benchPlatform, scratchDatabase, startBenchApp } from './support.js';
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
/** Requests per second of each kind (an agent pair counts as one). */
const RATES = { patch: 4, get: 4, externalAccount: 2, authorization: 4, agentPair: 2 };
const CARDS = 8;
const DRAIN_TIMEOUT_MS = 120_000;
const counts = { patch: 0, get: 0, externalAccount: 0, authorization: 0, agentPair: 0 };
const statuses = new Map();
const failures = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function rssOf(pid) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
/** One request: its status counted; a non-2xx remembered (5xx are the failures that matter). */
async function send(url, init) {
    const res = await fetch(url, init);
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 300 && failures.length < 20)
        failures.push(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 200)}`);
    return { status: res.status, json: (res.status < 300 ? JSON.parse(text) : {}) };
}
/** Runs `step` `rate` times a second until `end`, one at a time (a slow step delays the next). */
async function paced(kind, end, step) {
    const interval = 1000 / RATES[kind];
    let next = Date.now();
    for (let i = 0; Date.now() < end; i++) {
        await step(i);
        counts[kind]++;
        next += interval;
        await sleep(Math.max(0, next - Date.now()));
    }
}
async function main() {
    const adminUrl = process.env.DATABASE_URL;
    if (!adminUrl)
        throw new Error('npm run soak needs DATABASE_URL (PostgreSQL)');
    const started = Date.now();
    const key = process.env.WEBHOOK_KEY_ENCRYPTION_KEY ?? randomBytes(32).toString('base64');
    process.env.WEBHOOK_KEY_ENCRYPTION_KEY = key;
    const scratch = await scratchDatabase(adminUrl, 'soak');
    const app = await startBenchApp(scratch.url);
    const receiver = await WebhookReceiver.start();
    const workers = await startWorkers(1, scratch.url, key);
    const worker = workers[0];
    try {
        const platform = await benchPlatform(app);
        const tx = app.app.get(TransactionService);
        await tx.manager.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
            receiver.url,
            platform.platformId,
        ]);
        const ctx = {
            quick: true,
            rounds: 0,
            seconds: SECONDS,
            connections: 1,
            app,
            platform,
            bareUrl: '',
            adminUrl,
        };
        const cards = await benchCards(ctx, CARDS);
        const toggled = cards.slice(0, CARDS / 2);
        const authorized = cards.slice(CARDS / 2);
        const agent = await benchAgent(ctx);
        const platformHeaders = { authorization: platform.authorization, 'content-type': 'application/json' };
        const agentHeaders = { authorization: agent.bearer, 'content-type': 'application/json' };
        const frozen = new Set();
        const samples = [];
        const sample = async () => {
            samples.push({
                at: Math.round((Date.now() - started) / 1000),
                api: process.memoryUsage().rss,
                worker: await rssOf(worker.pid),
            });
            const s = samples[samples.length - 1];
            console.log(`[soak] t=${s.at}s rss api ${mb(s.api)}, worker ${mb(s.worker)}`);
        };
        await sample();
        const loadStart = Date.now();
        const end = loadStart + SECONDS * 1000;
        const sampler = setInterval(() => void sample(), 60_000);
        await Promise.all([
            paced('patch', end, async (i) => {
                const id = toggled[i % toggled.length];
                const status = frozen.has(id) ? 'ACTIVE' : 'FROZEN';
                const res = await send(`${app.baseUrl}/cards/${id}`, {
                    method: 'PATCH',
                    headers: platformHeaders,
                    body: JSON.stringify({ status, substatus: 'OTHER', reason: 'soak toggle' }),
                });
                if (res.status === 200) {
                    if (status === 'FROZEN')
                        frozen.add(id);
                    else
                        frozen.delete(id);
                }
            }),
            paced('get', end, async (i) => {
                await send(`${app.baseUrl}/cards/${cards[i % cards.length]}`, { headers: platformHeaders });
            }),
            paced('externalAccount', end, async (i) => {
                await send(`${app.baseUrl}/platform/external-accounts`, {
                    method: 'POST',
                    headers: platformHeaders,
                    body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', 100_000 + i) }),
                });
            }),
            paced('authorization', end, async (i) => {
                await send(`${app.baseUrl}/sandbox/cards/${authorized[i % authorized.length]}/simulate/authorization`, {
                    method: 'POST',
                    headers: platformHeaders,
                    body: JSON.stringify({
                        amount: 1,
                        currency: { code: 'USD' },
                        merchant: { descriptor: 'SOAK COFFEE', mcc: '5814', country: 'US' },
                    }),
                });
            }),
            paced('agentPair', end, async () => {
                const quote = await send(`${app.baseUrl}/agents/me/quotes`, {
                    method: 'POST',
                    headers: agentHeaders,
                    body: agent.quoteBody,
                });
                if (quote.status < 300)
                    await send(`${app.baseUrl}/agents/me/quotes/${String(quote.json.id)}/execute`, {
                        method: 'POST',
                        headers: agentHeaders,
                    });
            }),
        ]);
        clearInterval(sampler);
        const loadSeconds = (Date.now() - loadStart) / 1000;
        // Drain: wait until no event is PENDING (or the timeout), then compare with the receiver.
        const drainStart = Date.now();
        let pending = -1;
        while (Date.now() - drainStart < DRAIN_TIMEOUT_MS) {
            const [row] = await tx.manager.query(`SELECT count(*)::int AS pending FROM outbox_events WHERE platform_id = $1 AND status = 'PENDING'`, [platform.platformId]);
            pending = row.pending;
            if (pending === 0)
                break;
            await sleep(500);
        }
        const drainSeconds = (Date.now() - drainStart) / 1000;
        await sample();
        const events = await tx.manager.query(`SELECT id::text AS id, status, attempt_count AS attempts FROM outbox_events WHERE platform_id = $1`, [platform.platformId]);
        const received = new Map();
        for (const r of receiver.received)
            received.set(r.body.id, (received.get(r.body.id) ?? 0) + 1);
        const byId = new Map(events.map((e) => [e.id, e]));
        const receivedKeys = new Set([...received.keys()].map((k) => k.slice(k.lastIndexOf(':') + 1)));
        const undelivered = events.filter((e) => !receivedKeys.has(e.id));
        const duplicates = [...received.entries()]
            .filter(([, n]) => n > 1)
            .map(([id, n]) => {
            const event = byId.get(id.slice(id.lastIndexOf(':') + 1));
            const cause = event && event.attempts > 1
                ? `retried (${event.attempts} attempts: an earlier attempt failed or timed out after the receiver got it)`
                : 'NO CAUSE FOUND';
            return `${id} x${n}: ${cause}`;
        });
        const unexplained = duplicates.filter((d) => d.endsWith('NO CAUSE FOUND'));
        const unknown = [...receivedKeys].filter((k) => !byId.has(k));
        const fiveXx = [...statuses.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
        const other = [...statuses.entries()].filter(([s]) => s >= 300 && s < 500).reduce((n, [, c]) => n + c, 0);
        const ok = fiveXx === 0 && pending === 0 && undelivered.length === 0 && unexplained.length === 0;
        const first = samples[0];
        const last = samples[samples.length - 1];
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        const lines = [
            '## Soak',
            '',
            `Written by \`npm run soak\` on ${new Date().toISOString().slice(0, 10)}: SOAK_SECONDS=${SECONDS}, load ` +
                `${loadSeconds.toFixed(0)} s on PostgreSQL (scratch database), the app (ROLE=api) and one worker ` +
                `process (ROLE=worker) delivering to a local receiver; drain ${drainSeconds.toFixed(1)} s.`,
            '',
            `- result: **${ok ? 'ok' : 'PROBLEM'}**`,
            `- requests (${total} paced steps, an agent pair one step; rates/s ${JSON.stringify(RATES)}): card PATCH ${counts.patch}, card GET ${counts.get}, ` +
                `external-account POST ${counts.externalAccount}, authorizations ${counts.authorization}, agent quote+execute ` +
                `pairs ${counts.agentPair}`,
            `- status codes: ${JSON.stringify(Object.fromEntries(statuses))}; 5xx: ${fiveXx}; other non-2xx: ${other}`,
            `- events: ${events.length} written, ${receivedKeys.size} delivered (${receiver.received.length} ` +
                `receipts), ${undelivered.length} undelivered, ${pending} still PENDING, ${duplicates.length} duplicates` +
                `${duplicates.length ? ` (${duplicates.join('; ')})` : ''}${unknown.length ? `, ${unknown.length} receipts of unknown events` : ''}`,
            `- RSS api (this process, with the load loops): ${mb(first.api)} at start, ${mb(last.api)} at end; ` +
                `worker: ${mb(first.worker)} at start, ${mb(last.worker)} at end`,
            `- RSS samples (s: api/worker MB): ${samples
                .map((s) => `${s.at}: ${Math.round(s.api / 1048576)}/${Math.round(s.worker / 1048576)}`)
                .join(', ')}`,
            '',
        ];
        if (failures.length)
            console.log(`[soak] first non-2xx responses:\n${failures.join('\n')}`);
        const section = lines.join('\n');
        console.log(`\n${section}`);
        const file = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));
        const previous = await readFile(file, 'utf8').catch(() => '');
        const at = previous.indexOf('\n## Soak');
        const kept = at >= 0 ? previous.slice(0, at) : previous;
        const nextHeading = at >= 0 ? previous.indexOf('\n## ', at + 1) : -1;
        const after = nextHeading >= 0 ? previous.slice(nextHeading) : '';
        await writeFile(file, `${kept.trimEnd()}\n\n${section}${after}`);
        console.log(`written to ${file} (${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
        if (!ok)
            process.exitCode = 1;
    }
    finally {
        await stopWorkers(workers);
        await receiver.stop();
        await app.close();
        await scratch.drop();
    }
}
main().then(() => process.exit(process.exitCode ?? 0), (error) => {
    console.error(error);
    process.exit(1);
});
//# sourceMappingURL=soak.js.map