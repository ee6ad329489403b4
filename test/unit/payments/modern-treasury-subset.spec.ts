import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  extractProviderSubset,
  OPERATION_IDS,
  PROVIDER_FILE,
  SDK_OPERATIONS,
  SUBSET_PATH,
} from '../../fixtures/providers/modern-treasury/extract.mjs';
import { problems, readReference, serialize, type Subset } from '../../fixtures/reference/extract.mjs';

/**
 * test/support/modern-treasury-stand-in.ts validates every request of the Modern Treasury adapter
 * against a committed subset of Modern Treasury's published OpenAPI document
 * (test/fixtures/providers/modern-treasury/), so no test reads a file outside the repository. This
 * keeps the subset honest: on its own, it is consistent and holds exactly the operations the
 * adapter calls through the SDK; with PROVIDERS_DIR naming the directory that holds
 * `modern-treasury/<published document>` (.ci/run sets it when ../shared/providers is there), it is
 * exactly what extract.mjs cuts from that document today. Without PROVIDERS_DIR the drift check is
 * skipped, saying so.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ADAPTER_DIR = path.join(ROOT, 'src', 'payments', 'rail', 'modern-treasury');
const text = readFileSync(SUBSET_PATH, 'utf8');
const committed = JSON.parse(text) as Subset;

it('the committed subset is consistent: every $ref resolves inside it, every operation the adapter calls is there once', () => {
  expect(problems(committed, OPERATION_IDS)).toEqual([]);
  expect(Object.keys(committed.paths).length).toBeGreaterThan(0);
});

it('the committed subset is what extract.mjs makes of it: nothing unreferenced, no prose, no hand edits', () => {
  expect(extractProviderSubset(committed)).toEqual(committed);
  expect(serialize(committed)).toBe(text);
});

it('the operation list is exactly the SDK calls the adapter makes (client.<resource>.<method>(...))', () => {
  const source = ['modern-treasury-rail.ts', 'destination.ts']
    .map((file) => readFileSync(path.join(ADAPTER_DIR, file), 'utf8'))
    .join('\n');
  const called = new Set(
    [...source.matchAll(/\bclient\.([a-zA-Z]+)\.([a-zA-Z]+)\(/g)]
      .map((m) => `${m[1]}.${m[2]}`)
      .filter((call) => !call.startsWith('webhooks.')), // local computation, no request
  );
  expect([...called].sort()).toEqual(Object.keys(SDK_OPERATIONS).sort());
});

it('the license of the published document is committed beside the subset', () => {
  const license = readFileSync(path.join(path.dirname(SUBSET_PATH), 'LICENSE'), 'utf8');
  expect(license).toMatch(/MIT License/);
  expect(license).toMatch(/Modern Treasury/);
});

const providersDir = process.env.PROVIDERS_DIR;
if (providersDir) {
  it(`the committed subset is what extract.mjs cuts from $PROVIDERS_DIR/modern-treasury/${PROVIDER_FILE} (no drift)`, () => {
    const published = path.resolve(providersDir, 'modern-treasury', PROVIDER_FILE);
    if (!existsSync(published))
      throw new Error(`PROVIDERS_DIR is set but holds no modern-treasury/${PROVIDER_FILE}: ${published}`);
    const fresh = extractProviderSubset(readReference(published));
    // On drift, regenerate: node test/fixtures/providers/modern-treasury/extract.mjs "$PROVIDERS_DIR/modern-treasury/<file>".
    expect(fresh).toEqual(committed);
    expect(serialize(fresh)).toBe(text);
    const license = path.resolve(providersDir, 'modern-treasury', 'LICENSE');
    if (existsSync(license)) {
      expect(readFileSync(path.join(path.dirname(SUBSET_PATH), 'LICENSE'), 'utf8')).toBe(readFileSync(license, 'utf8'));
    }
  });
} else {
  const reason = `PROVIDERS_DIR is unset, so the committed subset is not compared with Modern Treasury's ${PROVIDER_FILE} (CI sets it)`;
  process.stderr.write(`[modern-treasury-subset] drift check skipped: ${reason}\n`);
  it.skip(`the committed subset matches the published document (drift check): skipped, ${reason}`, () => {});
}
