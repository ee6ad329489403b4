/**
 * The router walk's cost per request: `node dist/bench/cost/route-walk.js` (build first; the app on
 * a throwaway embedded engine). For a few paths, the layers Express 5 tries before the route that
 * answers (its router checks each layer's `match` in stack order) and the time of those `match`
 * calls, over 200,000 iterations, 5 rounds (min and median). Express's own per-layer work comes on
 * top (about as much again). See docs/performance.md, Request path.
 */
import { startBenchApp } from '../support.js';

interface Layer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

const ID = '0190a0a0-0000-7000-8000-000000000000';
const PATHS: Record<string, string> = {
  'GET /healthz': '/healthz',
  'GET /tokens/{id}': `/2025-10-13/tokens/Token:${ID}`,
  'GET /platform/external-accounts/{id}': `/2025-10-13/platform/external-accounts/ExternalAccount:${ID}`,
  'GET /cards/{id}': `/2025-10-13/cards/Card:${ID}`,
};
const ITERATIONS = 200_000;

const app = await startBenchApp(undefined, {});
const express = app.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
const stack = express.router.stack;
for (const [name, path] of Object.entries(PATHS)) {
  let tried = 0;
  for (const layer of stack) {
    tried++;
    if (layer.route?.methods.get && layer.match(path)) break;
  }
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i++) for (let j = 0; j < tried; j++) stack[j].match(path);
    rounds.push(Number(process.hrtime.bigint() - start) / ITERATIONS / 1000);
  }
  rounds.sort((a, b) => a - b);
  process.stdout.write(
    `${name}: layer ${tried} of ${stack.length}; matching the layers up to it: min ${rounds[0].toFixed(2)} µs, median ${rounds[2].toFixed(2)} µs\n`,
  );
}
await app.close();
process.exit(0);
