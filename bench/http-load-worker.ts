/**
 * Runs an HTTP load in a worker thread (its own event loop, so the second core) and posts back
 * the figures: the service under test keeps the main thread to itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { exampleAccountInfo } from '../src/external-accounts/variants/index.js';
import { runBounded } from './stats.js';

interface LoadJob {
  url: string;
  authorization: string;
  count: number;
  concurrency: number;
  seedOffset: number;
}

const job = workerData as LoadJob;
const result = await runBounded(job.count, job.concurrency, async (i) => {
  const res = await fetch(job.url, {
    method: 'POST',
    headers: { Authorization: job.authorization, 'Content-Type': 'application/json' },
    body: JSON.stringify({ currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', job.seedOffset + i) }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${text}`);
});
parentPort!.postMessage(result);
