/**
 * Runs one autocannon load in a child process (its own event loop and core: autocannon aggregates
 * only on a main thread), so the app under test keeps the parent's event loop to itself; sends
 * back the figures over IPC.
 */
import autocannon from 'autocannon';
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
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  method: job.body ? 'POST' : 'GET',
  headers: {
    ...(job.authorization ? { authorization: job.authorization } : {}),
    ...(job.body ? { 'content-type': 'application/json' } : {}),
  },
  requests: [
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
