import { blockOutputs, missingLines, runnableBlocks, script } from '../../support/runnable-docs.js';

const doc = [
  '# Title',
  '',
  '```bash',
  'echo not runnable',
  '```',
  '<!-- runnable -->',
  '```bash',
  'X=1',
  'echo "x is $X"',
  '```',
  '',
  '```text',
  'x is ...',
  '```',
  '<!-- runnable -->',
  '```bash',
  'echo done',
  '```',
].join('\n');

describe('runnable walk-throughs (the docs convention)', () => {
  it('finds the blocks marked runnable and the expected output after each', () => {
    expect(runnableBlocks(doc)).toEqual([
      { line: 7, code: 'X=1\necho "x is $X"', expected: ['x is ...'] },
      { line: 16, code: 'echo done', expected: [] },
    ]);
  });

  it('refuses a marker that is not followed by a bash fence', () => {
    expect(() => runnableBlocks('<!-- runnable -->\n```sh\necho\n```\n')).toThrow(/bash fence/);
  });

  it('matches expected lines in order, whole lines, `...` for anything', () => {
    const out = 'Card:0192 is ACTIVE\nFROZEN\nINVALID_STATE_TRANSITION\n';
    expect(missingLines(out, ['Card:... is ACTIVE', 'INVALID_STATE_TRANSITION'])).toEqual([]);
    expect(missingLines(out, ['INVALID_STATE_TRANSITION', 'FROZEN'])).toEqual(['FROZEN']);
    expect(missingLines(out, ['FROZE'])).toEqual(['FROZE']);
    expect(missingLines(out, ['Card:0192.is ACTIVE'])).toEqual(['Card:0192.is ACTIVE']);
  });

  it('runs the blocks in one script and splits the output per block', () => {
    const blocks = runnableBlocks(doc);
    expect(script(blocks)).toMatch(/^set -euo pipefail\n/);
    const stdout = 'x is 1\n@@runnable-block-1-done@@\ndone\n@@runnable-block-2-done@@\n';
    expect(blockOutputs(stdout, 2)).toEqual(['x is 1\n', 'done\n']);
    expect(blockOutputs('x is 1\n@@runnable-block-1-done@@\n', 2)).toEqual(['x is 1\n']);
  });
});
