import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { areaGraph, areaImports, documentedGraph } from '../../support/import-graph.js';

/**
 * Which area may import which (docs/architecture.md): the rules in words, and the table that
 * must equal the code's graph, so the document and the code cannot drift apart.
 */
const SRC = fileURLToPath(new URL('../../../src', import.meta.url));
const DOC = fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url));
const imports = areaImports(SRC);
const arrows = (from: string, to: readonly string[]) =>
  imports.filter((i) => i.from === from && to.includes(i.to)).map((i) => `${i.file} -> ${i.target}`);

it('payments imports no agent, UMA, card or console code', () => {
  expect(arrows('payments', ['agents', 'uma', 'cards', 'console'])).toEqual([]);
});

it('other areas reach payments through what it exports: never a controller, a worker or the rail', () => {
  const inside = imports
    .filter((i) => i.to === 'payments')
    .filter((i) => /\.controller\.ts$|\.worker\.ts$|^payments\/rail\//.test(i.target))
    .map((i) => `${i.file} -> ${i.target}`);
  expect(inside).toEqual([]);
});

it('the ledger imports customers; customers never import the ledger', () => {
  expect(arrows('customers', ['ledger'])).toEqual([]);
  expect(imports.some((i) => i.from === 'ledger' && i.to === 'customers')).toBe(true);
});

it('config imports no feature area (only common/ and secrets/); errors imports nothing outside itself', () => {
  expect(
    imports.filter((i) => i.from === 'config' && !['common', 'secrets'].includes(i.to)).map((i) => i.file),
  ).toEqual([]);
  expect(imports.filter((i) => i.from === 'errors').map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
});

it("the architecture doc's table is the code's import graph, arrow for arrow", () => {
  const documented = documentedGraph(readFileSync(DOC, 'utf8'), 'Which area may import which');
  const code = areaGraph(imports);
  const missing = [...code].flatMap(([from, to]) =>
    to.filter((t) => !(documented.get(from) ?? []).includes(t)).map((t) => `${from} -> ${t} (not in the doc)`),
  );
  const stale = [...documented].flatMap(([from, to]) =>
    to.filter((t) => !(code.get(from) ?? []).includes(t)).map((t) => `${from} -> ${t} (not in the code)`),
  );
  expect([...missing, ...stale]).toEqual([]);
});

it('the graph reader sees the arrows it is meant to (a rule over an empty graph proves nothing)', () => {
  expect(imports.length).toBeGreaterThan(500);
  expect(arrows('agents', ['payments']).length).toBeGreaterThan(0);
  expect(arrows('uma', ['payments']).length).toBeGreaterThan(0);
});
