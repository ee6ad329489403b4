import Sequencer from '@jest/test-sequencer';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Shards by weight instead of by path hash: `test/shard-weights.json` holds each e2e file's seconds
 * on the embedded engine (a file it does not name counts 15 s, a unit file 1 s), and the files go,
 * heaviest first, to the lightest shard so far. The shards of `npm test` then finish together.
 * The table only balances; a stale one costs time, never a test.
 */
const weights = JSON.parse(readFileSync(new URL('../shard-weights.json', import.meta.url), 'utf8'));

export default class WeightedSequencer extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const weightOf = (test) => {
      const relative = path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/');
      return weights[relative] ?? (relative.startsWith('test/unit/') ? 1 : 15);
    };
    const ordered = [...tests]
      .map((test) => ({ test, weight: weightOf(test), key: test.path }))
      .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : 1));
    const loads = Array.from({ length: shardCount }, () => 0);
    const mine = [];
    for (const entry of ordered) {
      const lightest = loads.indexOf(Math.min(...loads));
      loads[lightest] += entry.weight;
      if (lightest === shardIndex - 1) mine.push(entry.test);
    }
    return mine;
  }
}
