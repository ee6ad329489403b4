import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The root holds what the README and docs/architecture.md name ("The root"): a scratch file
 * committed at the root fails here.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Tracked entries at the root (a folder once); without git (an exported tree), what is there minus the ignored. */
function rootEntries(): string[] {
  try {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    return [...new Set(files.map((f) => (f.includes('/') ? `${f.slice(0, f.indexOf('/'))}/` : f)))].sort();
  } catch {
    const ignored = new Set(['.git', 'node_modules', 'dist', 'coverage', '.data', '.env']);
    return readdirSync(ROOT, { withFileTypes: true })
      .filter((e) => !ignored.has(e.name) && !e.name.endsWith('.log'))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
  }
}

it('every file and folder at the root is named in the README or in docs/architecture.md ("The root")', () => {
  const doc = readFileSync(`${ROOT}/docs/architecture.md`, 'utf8');
  const section = doc.slice(doc.indexOf('\n## The root\n'), doc.indexOf('\n## ', doc.indexOf('\n## The root\n') + 1));
  const readme = readFileSync(`${ROOT}/README.md`, 'utf8');
  const named = (entry: string) => section.includes(`\`${entry}\``) || readme.includes(`\`${entry}\``);
  const entries = rootEntries();
  expect(entries).toContain('src/');
  expect(entries.filter((e) => !named(e))).toEqual([]);
});
