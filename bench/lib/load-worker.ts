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
const { exampleAccountInfo } = job.body
  ? await import('../../src/external-accounts/variants/index.js')
  : { exampleAccountInfo: null };
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  method: job.body ? 'POST' : 'GET',
  headers: {
    ...(job.authorization ? { authorization: job.authorization } : {}),
    ...(job.body ? { 'content-type': 'application/json' } : {}),
  },
  requests: job.quoteAndExecute
    ? [
        {
          method: 'POST',
          path: job.quoteAndExecute.path,
          headers: { authorization: job.authorization!, 'content-type': 'application/json' },
          body: job.quoteAndExecute.body,
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
          setupRequest: (req) =>
            job.body === 'external-account'
              ? {
                  ...req,
                  body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo!('EUR_ACCOUNT', ++seed) }),
                }
              : req,
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
