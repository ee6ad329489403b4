import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  NEWER_WEBHOOKS_FILE,
  REFERENCE_FILE,
  serialize,
  WEBHOOK_TYPES_PATH,
  webhookTypesOf,
  type WebhookTypeList,
} from '../../fixtures/reference/extract.mjs';

/**
 * Every reference webhook type either has a trigger here, driven by an e2e test that receives it,
 * or is named in docs/webhooks.md with why it cannot occur here. The type list is committed data
 * (test/fixtures/reference/webhook-types.json, cut by extract.mjs's listWebhookTypes); with
 * REFERENCE_DIR set it must be exactly what the reference says today. docs/webhooks.md's section
 * "Reference webhook types: trigger and test" has one row per type: the type, what triggers it
 * here, and the e2e files that receive it (each must exist, name the type and run a real receiver)
 * or, with the trigger "none", "cannot occur here: <why>".
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DOC = path.join(ROOT, 'docs', 'webhooks.md');
const SECTION = '## Reference webhook types: trigger and test';
const text = readFileSync(WEBHOOK_TYPES_PATH, 'utf8');
const committed = JSON.parse(text) as WebhookTypeList;
const types = committed.types.map((t) => t.type);

interface Row {
  type: string;
  trigger: string;
  test: string;
}

/** The rows of the section's table (header and separator aside). */
function tableRows(): Row[] {
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`docs/webhooks.md has no section "${SECTION}"`);
  const rest = doc.slice(start + SECTION.length + 2);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    )
    .filter((cells) => !/^:?-+:?$/.test(cells[0]) && cells[0] !== 'Type')
    .map(([type, trigger, test]) => ({ type: type.replace(/^`|`$/g, ''), trigger: trigger ?? '', test: test ?? '' }));
}

/** How a test receives webhooks at a real receiver: directly, or through test/support/events.ts. */
const RECEIVES = /\b(WebhookReceiver|WebhookCapture|signedSubscriber)\b/;

/** The e2e files a test cell names (backticked repository paths). */
const testFiles = (cell: string) => [...cell.matchAll(/`(test\/e2e\/[^`]+\.e2e-spec\.ts)`/g)].map((m) => m[1]);

it('the committed list is the reference WebhookType: unique types, each with its carrier or none, as extract.mjs writes it', () => {
  expect(types.length).toBeGreaterThan(40);
  expect(new Set(types).size).toBe(types.length);
  expect(types).toContain('TEST');
  for (const entry of committed.types) expect((entry.webhook === null) === (entry.schema === null)).toBe(true);
  expect(serialize(committed)).toBe(text);
});

describe('docs/webhooks.md: a row for every reference webhook type', () => {
  const rows = tableRows();

  it('every reference type has exactly one row, and every row is a reference type', () => {
    const named = rows.map((r) => r.type);
    expect(named.filter((type, i) => named.indexOf(type) !== i)).toEqual([]);
    expect(types.filter((type) => !named.includes(type))).toEqual([]);
    expect(named.filter((type) => !types.includes(type))).toEqual([]);
  });

  it.each(types)('%s: a trigger and a test that exists and names it, or "cannot occur here: <why>"', (type) => {
    const row = rows.find((r) => r.type === type);
    expect(row).toBeDefined();
    const { trigger, test } = row!;
    if (/^cannot occur here: \S/.test(test)) {
      expect(trigger).toBe('none');
      return;
    }
    expect(trigger.length).toBeGreaterThan(10);
    const files = testFiles(test);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const at = path.join(ROOT, file);
      expect([file, existsSync(at)]).toEqual([file, true]);
      const source = readFileSync(at, 'utf8');
      expect([file, source.includes(type)]).toEqual([file, true]);
      // It receives webhooks at a real receiver (test/support/webhook-receiver.ts), not only the outbox's record.
      expect([file, RECEIVES.test(source)]).toEqual([file, true]);
    }
  });
});

const referenceDir = process.env.REFERENCE_DIR;
if (referenceDir) {
  it(`the committed list is what extract.mjs cuts from $REFERENCE_DIR (${NEWER_WEBHOOKS_FILE}, ${REFERENCE_FILE}): no drift`, () => {
    for (const file of [NEWER_WEBHOOKS_FILE, REFERENCE_FILE])
      if (!existsSync(path.resolve(referenceDir, file)))
        throw new Error(`REFERENCE_DIR is set but holds no ${file}: ${path.resolve(referenceDir, file)}`);
    // On drift, regenerate: node test/fixtures/reference/extract-webhook-types.mjs "$REFERENCE_DIR".
    expect(serialize(webhookTypesOf(path.resolve(referenceDir)))).toBe(text);
  });
} else {
  const reason =
    'REFERENCE_DIR is unset, so the committed webhook types are not compared with the reference (CI sets it)';
  process.stderr.write(`[webhook-types] drift check skipped: ${reason}\n`);
  it.skip(`the committed webhook types match the reference (drift check): skipped, ${reason}`, () => {});
}
