import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Measurement } from './report.js';

export interface LoadJob {
  url: string;
  authorization?: string;
  /**
   * A body per request of this kind (`external-account`: a unique identity each time;
   * `card-authorization`: a simulated $0.01 authorization); GET without.
   */
  body?: 'external-account' | 'card-authorization';
  /** Paths (under the URL's origin) the requests go to in turn; `url`'s own path when absent. */
  paths?: string[];
  /**
   * PATCH /cards/{id} freeze/unfreeze toggling over these cards (ids): `url` is the cards
   * collection URL; each card is toggled by one request at a time (see load-worker.ts).
   */
  toggleCards?: string[];
  /** With `toggleCards`: each card's own Authorization header (cards of several platforms); else `authorization`. */
  cardAuthorizations?: Record<string, string>;
  /**
   * Instead of one request: a sequence per iteration, `POST` the quote body to `url`, then
   * `POST <url>/<the quote's id>/execute` (an agent's quote-and-execute pair; `authorization` is
   * the agent's Bearer header).
   */
  quoteAndExecute?: {
    path: string;
    body: string;
    /** bodies taken in turn (e.g. one per source account) */ bodies?: string[];
  };
  connections: number;
  seconds: number;
  seedOffset: number;
}

/**
 * Account identities vary with seed % 1,000,000 (examples.ts): each run gets its own block of
 * 100,000 (9 runs per platform before they would repeat; the runner uses one platform per engine).
 */
let seeds = 0;

/** One autocannon run from a child process; throws when any response was not 2xx. */
export async function autocannonRun(job: Omit<LoadJob, 'seedOffset'>): Promise<Measurement> {
  // Each body run gets its own block of account identities in [100,000, 1,000,000)
  // (exampleAccountInfo varies them modulo 1,000,000, and suites use small seeds for their fixtures):
  // only runs that create accounts advance it, so up to nine of them per engine never collide.
  const seedOffset = job.body === 'external-account' ? (seeds = seeds >= 900_000 ? 100_000 : seeds + 100_000) : 0;
  const child = fork(fileURLToPath(new URL('./load-worker.js', import.meta.url)), [
    JSON.stringify({ ...job, seedOffset }),
  ]);
  const result = await new Promise<{
    total: number;
    p50: number;
    p99: number;
    non2xx: number;
    errors: number;
    statusCodes: unknown;
    seconds: number;
  }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load process exited with ${code}`)));
  });
  child.kill();
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${job.url}: ${result.non2xx} non-2xx responses, ${result.errors} errors; status codes ${JSON.stringify(result.statusCodes)}`,
    );
  return { perSecond: result.total / result.seconds, p50: result.p50, p99: result.p99 };
}
