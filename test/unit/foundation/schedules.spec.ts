import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BusinessTime, Clock, later, RealClock, type RealTime, SystemClock } from '../../../src/common/clock.js';
import { SCHEDULES, STAMPS } from '../../../src/common/schedules.js';

/**
 * Every due time is declared with its clock (issue 27, docs/test-clocks.md "Adding a schedule"):
 * these read src/ and the docs, so a schedule added without saying which clock it is on fails here.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SRC = join(ROOT, 'src');

function sources(dir = SRC): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ path: relative(ROOT, full), text: readFileSync(full, 'utf8') }];
  });
}

const TIME_TYPE = /(?:^|,)\s*"?(\w+)"?\s+(?:timestamptz|timestamp(?:\s+with(?:out)?\s+time\s+zone)?)\b/gim;

/** The text inside the parentheses that open at `open`. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** Every time column the migrations create, as `table.column`. */
function migrationTimeColumns(files: Array<{ text: string }>): Set<string> {
  const found = new Set<string>();
  for (const { text } of files) {
    for (const m of text.matchAll(/CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?\s*\(/gi)) {
      const body = balanced(text, m.index + m[0].length - 1);
      for (const c of body.matchAll(TIME_TYPE)) found.add(`${m[1]}.${c[1]}`);
    }
    for (const m of text.matchAll(/ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?"?(\w+)"?([^;`]*)/gi)) {
      for (const c of m[2].matchAll(
        /ADD\s+(?:COLUMN\s+)?(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?\s+(?:timestamptz|timestamp)\b/gi,
      ))
        found.add(`${m[1]}.${c[1]}`);
    }
  }
  return found;
}

/** Each entity's time columns: `table.column` to the property's declared type. */
function entityTimeColumns(files: Array<{ path: string; text: string }>): Map<string, string> {
  const found = new Map<string, string>();
  for (const { text } of files) {
    const parts = text.split(/@Entity\(\s*['"`](\w+)['"`]/);
    for (let i = 1; i < parts.length; i += 2) {
      const table = parts[i];
      for (const m of parts[i + 1].matchAll(/@Column\(([^)]*)\)\s*(\w+)[?!]?:\s*([^;]+);/g)) {
        if (!/timestamp/.test(m[1])) continue;
        const column = /name:\s*['"`](\w+)['"`]/.exec(m[1])?.[1] ?? m[2];
        found.set(`${table}.${column}`, m[3].trim());
      }
    }
  }
  return found;
}

const all = sources();
const migrations = all.filter((f) => f.path.startsWith('src/database/migrations/'));
const created = migrationTimeColumns(migrations);
const entities = entityTimeColumns(all.filter((f) => !f.path.startsWith('src/database/migrations/')));
const key = (s: { table: string; column: string }) => `${s.table}.${s.column}`;
const registered = new Set(SCHEDULES.map(key));

it('finds the time columns of the migrations (the scan itself works)', () => {
  expect(created).toContain('cards.provisioning_due_at');
  expect(created).toContain('quotes.expires_at');
  expect(created).toContain('outbox_events.next_attempt_at');
  const probe = migrationTimeColumns([
    { text: 'CREATE TABLE t (id uuid, due_at timestamptz NOT NULL, n numeric(10, 2), x timestamp with time zone)' },
    { text: 'ALTER TABLE u ADD COLUMN IF NOT EXISTS respond_by timestamptz' },
  ]);
  expect([...probe].sort()).toEqual(['t.due_at', 't.x', 'u.respond_by']);
});

it('every time column of the migrations is a declared schedule (with its clock) or a declared stamp', () => {
  const undeclared = [...created].filter(
    (c) => !registered.has(c) && !STAMPS.includes(c) && !/\.(created_at|updated_at)$/.test(c),
  );
  // Each one listed here: add it to SCHEDULES (with its clock) or STAMPS in src/common/schedules.ts.
  expect(undeclared).toEqual([]);
});

it('every declared schedule and stamp exists in the migrations, once', () => {
  expect([...registered, ...STAMPS].filter((c) => !created.has(c))).toEqual([]);
  expect(registered.size).toBe(SCHEDULES.length);
});

it("the entity property of each schedule is typed with its clock's time (BusinessTime / RealTime)", () => {
  const wrong = SCHEDULES.flatMap((s) => {
    const type = entities.get(key(s));
    if (type === undefined) return [];
    const expected = s.clock === 'business' ? 'BusinessTime' : 'RealTime';
    return type.replace(/\s*\|\s*null/, '') === expected ? [] : [`${key(s)}: ${type} (expected ${expected})`];
  });
  expect(wrong).toEqual([]);
  // The ones with an entity are checked (the rest are written by fixed SQL only).
  expect(entities.get('cards.provisioning_due_at')).toBe('RealTime | null');
  expect(entities.get('quotes.expires_at')).toBe('BusinessTime');
});

it('the files that set or compare a schedule read its clock', () => {
  const wrong = SCHEDULES.flatMap((s) =>
    s.files.flatMap((path) => {
      const text = readFileSync(join(ROOT, path), 'utf8');
      const reads = s.clock === 'real' ? /\bRealClock\b/.test(text) : /(?<!Real)\bClock\b/.test(text);
      return reads ? [] : [`${path} (${key(s)}, ${s.clock} time)`];
    }),
  );
  expect(wrong).toEqual([]);
});

it('every schedule names a test that exists and is in docs/test-clocks.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/test-clocks.md'), 'utf8');
  expect(SCHEDULES.filter((s) => !existsSync(join(ROOT, s.test))).map(key)).toEqual([]);
  expect(SCHEDULES.filter((s) => !doc.includes(`\`${key(s)}\``)).map(key)).toEqual([]);
});

it("a due time typed with one clock's time does not accept the other's (checked by the compiler)", () => {
  const business: Clock = new SystemClock();
  const real: RealClock = new SystemClock();
  // @ts-expect-error business time is not real time
  const a: RealTime = business.now();
  // @ts-expect-error real time is not business time
  const b: BusinessTime = real.now();
  // @ts-expect-error arithmetic gives a plain Date, on no clock
  const c: RealTime = new Date(real.now().getTime() + 1000);
  // later() keeps the clock's type
  const d: RealTime = later(real.now(), 1000);
  const e: BusinessTime = later(business.now(), 1000);
  // Both are Dates: anything that takes a Date takes either.
  const stamp = (x: Date) => x.getTime();
  expect(stamp(d) - stamp(e)).toBeLessThanOrEqual(1000);
  expect([a, b, c].every((x) => x instanceof Date)).toBe(true);
});
