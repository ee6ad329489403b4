import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm test` runs the suite as two shards (test/run.js, split by test/support/sequencer.js): each
 * test file must land in exactly one shard, or a file would silently run twice or never.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const list = (...args: string[]) =>
  execFileSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      'node_modules/jest/bin/jest.js',
      '--config',
      'test/jest.config.js',
      '--listTests',
      ...args,
    ],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
    .split('\n')
    .filter((line) => line.endsWith('.ts'))
    .sort();

describe('the shards of npm test', () => {
  it('hold every test file exactly once, split close to evenly by the measured weights', () => {
    const all = list();
    const shards = [list('--shard=1/2'), list('--shard=2/2')];
    expect([...shards[0], ...shards[1]].sort()).toEqual(all);
    expect(shards[0].filter((file) => shards[1].includes(file))).toEqual([]);
    const weights = JSON.parse(readFileSync(path.join(ROOT, 'test/shard-weights.json'), 'utf8')) as Record<
      string,
      number
    >;
    const load = (files: string[]) =>
      files.reduce((sum, file) => {
        const relative = path.relative(ROOT, file).split(path.sep).join('/');
        return sum + (weights[relative] ?? (relative.startsWith('test/unit/') ? 1 : 15));
      }, 0);
    const [a, b] = shards.map(load);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.max(...Object.values(weights)));
  });
});
