/**
 * Runs one autocannon load in a child process (its own event loop and core: autocannon aggregates
 * only on a main thread), so the app under test keeps the parent's event loop to itself; sends
 * back the figures over IPC.
 */
import autocannon, { type Request } from 'autocannon';
import type { LoadJob } from './http.js';

const job = JSON.parse(process.argv[2]) as LoadJob;
let seed = job.seedOffset;
// Loaded only for bodies (the variants catalogue is large).
const { exampleAccountInfo } =
  job.body === 'external-account'
    ? await import('../../src/external-accounts/variants/index.js')
    : { exampleAccountInfo: null };
const CARD_AUTHORIZATION = JSON.stringify({
  amount: 1,
  currency: { code: 'USD' },
  merchant: { descriptor: 'BENCH COFFEE', mcc: '5814', country: 'US' },
});
let turn = 0;
const nextPath = (path: string) => (job.paths ? job.paths[turn++ % job.paths.length] : path);
const headers = {
  ...(job.authorization ? { authorization: job.authorization } : {}),
  ...(job.body || job.toggleCards || job.quoteAndExecute ? { 'content-type': 'application/json' } : {}),
};

/**
 * Card toggling: each request takes the next card that no request is changing, and asks for the
 * other of ACTIVE/FROZEN than the card is in (read once at the start, then flipped on each 200),
 * so every request is a valid transition.
 */
const cards = job.toggleCards ?? [];
const headersOf = (id: string) =>
  job.cardAuthorizations?.[id] ? { ...headers, authorization: job.cardAuthorizations[id] } : headers;
const statusOf = new Map<string, string>();
const busy = new Set<string>();
let next = 0;
for (let i = 0; i < cards.length; i += 32)
  await Promise.all(
    cards.slice(i, i + 32).map(async (id) => {
      const res = await fetch(`${job.url}/${id}`, { headers: headersOf(id) });
      statusOf.set(id, ((await res.json()) as { status: string }).status);
    }),
  );
const toggleRequest: Request = {
  method: 'PATCH',
  setupRequest: (req: Request, ctx: object) => {
    const context = ctx as { card?: string };
    let id = cards[next++ % cards.length];
    while (busy.has(id)) id = cards[next++ % cards.length];
    busy.add(id);
    context.card = id;
    const status = statusOf.get(id) === 'ACTIVE' ? 'FROZEN' : 'ACTIVE';
    return {
      ...req,
      path: `${new URL(job.url).pathname}/${id}`,
      headers: headersOf(id),
      body: JSON.stringify({ status, substatus: 'OTHER', reason: 'bench toggle' }),
    };
  },
  onResponse: (status: number, body: string, ctx: object) => {
    const id = (ctx as { card: string }).card;
    busy.delete(id);
    if (status === 200) statusOf.set(id, (JSON.parse(body) as { status: string }).status);
  },
};

const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  method: job.body ? 'POST' : 'GET',
  headers,
  requests: job.toggleCards
    ? [toggleRequest]
    : job.quoteAndExecute
      ? [
          {
            method: 'POST',
            path: job.quoteAndExecute.path,
            body: job.quoteAndExecute.body,
            ...(job.quoteAndExecute.bodies
              ? {
                  setupRequest: (req: Request) => ({
                    ...req,
                    body: job.quoteAndExecute!.bodies![turn++ % job.quoteAndExecute!.bodies!.length],
                  }),
                }
              : {}),
            onResponse: (_status: number, body: string, context: object) => {
              (context as { quoteId?: string }).quoteId = (JSON.parse(body) as { id: string }).id;
            },
          },
          {
            method: 'POST',
            setupRequest: (req, context: object) => ({
              ...req,
              path: `${job.quoteAndExecute!.path}/${String((context as { quoteId?: string }).quoteId)}/execute`,
            }),
          },
        ]
      : [
          {
            setupRequest: (req) => {
              const path = nextPath(req.path ?? '/');
              if (job.body === 'external-account')
                return {
                  ...req,
                  path,
                  body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo!('EUR_ACCOUNT', ++seed) }),
                };
              if (job.body === 'card-authorization') return { ...req, path, body: CARD_AUTHORIZATION };
              return { ...req, path };
            },
          },
        ],
});
process.send!({
  requests: result.requests.average,
  total: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  statusCodes: result.statusCodeStats,
  seconds: result.duration,
});
