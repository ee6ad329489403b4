import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Shared machinery lives in one place (issue 21, "Seams where they belong"): these read the
 * sources, so a second copy fails here whatever ESLint lets through.
 */
const SRC = fileURLToPath(new URL('../../../src', import.meta.url));

function sources(dir = SRC): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    if (!entry.name.endsWith('.ts')) return [];
    return [{ path: relative(SRC, full), text: readFileSync(full, 'utf8') }];
  });
}

const outside = (folder: string) => sources().filter((f) => !f.path.startsWith(`${folder}/`));

it('no file outside src/secrets/ seals or opens a value', () => {
  const offenders = outside('secrets').filter((f) =>
    /createCipheriv|createDecipheriv|['"`]aes-\d+-gcm['"`]|\.setAuthTag\(/i.test(f.text),
  );
  expect(offenders.map((f) => f.path)).toEqual([]);
});

it('no file outside src/database/ opens a LISTEN connection', () => {
  const offenders = outside('database').filter((f) => /['"`]\s*LISTEN\s/.test(f.text));
  expect(offenders.map((f) => f.path)).toEqual([]);
  expect(
    sources()
      .filter((f) => /['"`]\s*LISTEN\s/.test(f.text))
      .map((f) => f.path),
  ).toEqual(['database/notifications.ts']);
});

it('nothing in src/errors/ imports a feature folder: the catalogue is composed in src/error-catalogue.ts', () => {
  const imports = sources()
    .filter((f) => f.path.startsWith('errors/'))
    .flatMap((f) => [...f.text.matchAll(/from '(\.[^']*)'/g)].map((m) => `${f.path}: ${m[1]}`));
  expect(imports.filter((line) => !/: \.\/[^/]+$/.test(line))).toEqual([]);
});
