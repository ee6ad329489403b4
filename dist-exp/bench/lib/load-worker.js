/**
 * Runs one autocannon load in a child process (its own event loop and core: autocannon aggregates
 * only on a main thread), so the app under test keeps the parent's event loop to itself; sends
 * back the figures over IPC.
 */
import autocannon from 'autocannon';
const job = JSON.parse(process.argv[2]);
let seed = job.seedOffset;
// Loaded only for bodies (the variants catalogue is large).
const { exampleAccountInfo } = job.body === 'external-account'
    ? await import('../../src/external-accounts/variants/index.js')
    : { exampleAccountInfo: null };
const CARD_AUTHORIZATION = JSON.stringify({
    amount: 1,
    currency: { code: 'USD' },
    merchant: { descriptor: 'BENCH COFFEE', mcc: '5814', country: 'US' },
});
let turn = 0;
const nextPath = (path) => (job.paths ? job.paths[turn++ % job.paths.length] : path);
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
const statusOf = new Map();
const busy = new Set();
let next = 0;
for (let i = 0; i < cards.length; i += 32)
    await Promise.all(cards.slice(i, i + 32).map(async (id) => {
        const res = await fetch(`${job.url}/${id}`, { headers });
        statusOf.set(id, (await res.json()).status);
    }));
const toggleRequest = {
    method: 'PATCH',
    setupRequest: (req, ctx) => {
        const context = ctx;
        let id = cards[next++ % cards.length];
        while (busy.has(id))
            id = cards[next++ % cards.length];
        busy.add(id);
        context.card = id;
        const status = statusOf.get(id) === 'ACTIVE' ? 'FROZEN' : 'ACTIVE';
        return {
            ...req,
            path: `${new URL(job.url).pathname}/${id}`,
            body: JSON.stringify({ status, substatus: 'OTHER', reason: 'bench toggle' }),
        };
    },
    onResponse: (status, body, ctx) => {
        const id = ctx.card;
        busy.delete(id);
        if (status === 200)
            statusOf.set(id, JSON.parse(body).status);
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
                    onResponse: (_status, body, context) => {
                        context.quoteId = JSON.parse(body).id;
                    },
                },
                {
                    method: 'POST',
                    setupRequest: (req, context) => ({
                        ...req,
                        path: `${job.quoteAndExecute.path}/${String(context.quoteId)}/execute`,
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
                                body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', ++seed) }),
                            };
                        if (job.body === 'card-authorization')
                            return { ...req, path, body: CARD_AUTHORIZATION };
                        return { ...req, path };
                    },
                },
            ],
});
process.send({
    requests: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: result.statusCodeStats,
    seconds: result.duration,
});
//# sourceMappingURL=load-worker.js.map