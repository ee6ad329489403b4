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

it("no file outside src/common/client-address.ts reads the client's address (req.ip, req.ips, remoteAddress)", () => {
  // Every use (limits, the audit trail, the access log) reads clientAddress(req), which follows
  // TRUST_PROXY; a second reader would see the proxy's address, or a forged X-Forwarded-For.
  const reader = /\.ips?\b(?!\s*:)|\bremoteAddress\b(?!\s*:)|headers\s*\[\s*['"`]x-forwarded-for|\bforwarded\(/i;
  const offenders = sources()
    .filter((f) => f.path !== 'common/client-address.ts')
    .flatMap((f) =>
      f.text
        .split('\n')
        .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
        .filter(({ line }) => !/^\s*(\/\/|\*|\/\*)/.test(line) && reader.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
  expect(offenders).toEqual([]);
});

it('no re-export shims: a module is imported from where it lives (only a folder’s index.ts re-exports)', () => {
  const reexport = /^export\s+(\*|\{[^}]*\})\s+from\s|^export\s+\{[^}]*\};?\s*$/m;
  const offenders = sources()
    .filter((f) => !f.path.endsWith('/index.ts'))
    .filter((f) => reexport.test(f.text))
    .map((f) => f.path);
  expect(offenders).toEqual([]);
});
