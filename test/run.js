// `npm test`: the whole suite in TEST_SHARDS (default 2) Jest processes side by side, each with its
// own database (global-setup.js makes one per process), so the files of one shard never meet the
// apps of another. With arguments (`npm test -- test/e2e/fuzz`), one Jest process runs just those.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const jest = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--config', 'test/jest.config.js'];
const args = process.argv.slice(2);
const shards = Math.max(1, Number(process.env.TEST_SHARDS ?? 2) || 1);

function run(extra, label) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...jest, ...extra], {
      stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: process.env,
    });
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${label} ${line}\n`));
      }
    }
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const codes =
  args.length > 0 || shards === 1
    ? [await run(args)]
    : await Promise.all(Array.from({ length: shards }, (_, i) => run([`--shard=${i + 1}/${shards}`], `[${i + 1}/${shards}]`)));
if (args.length === 0 && shards > 1) {
  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`\n[test] ${shards} shards in ${seconds} s: ${codes.map((c) => (c === 0 ? 'passed' : 'FAILED')).join(', ')}\n`);
}
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
