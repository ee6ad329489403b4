import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

/**
 * `engines`, `.nvmrc` (the Node CI runs) and the Dockerfile's base image agree with what the
 * dependency tree needs: a fresh `npm ci` on any of them prints no EBADENGINE warning, and so does
 * one on the lowest release of every line `engines` admits (e.g. 20.19.0, 22.13.0, 24.11.0).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const nvmrc = read('.nvmrc').trim();
const [, image] = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-/m.exec(read('Dockerfile')) ?? [];
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};
/** Every installed package that declares the Node versions it runs on. */
const declared = Object.entries(lock.packages)
  .filter(([where, p]) => where !== '' && !Array.isArray(p.engines) && typeof p.engines?.node === 'string')
  .map(([where, p]) => ({
    name: `${where.replace(/^.*node_modules\//, '')}@${p.version}`,
    node: (p.engines as { node: string }).node,
  }));

/** The packages whose `engines.node` refuses `version` (what npm ci would warn about). */
const refusing = (version: string) =>
  declared
    .filter((p) => !semver.satisfies(version, p.node, { includePrerelease: true }))
    .map((p) => `${p.name} (${p.node})`);

describe('the Node toolchain', () => {
  it('.nvmrc names an exact release that engines admits, the Node running these tests', () => {
    expect(nvmrc).toMatch(/^\d+\.\d+\.\d+$/);
    expect(semver.satisfies(nvmrc, engines)).toBe(true);
    expect(semver.satisfies(process.version, engines)).toBe(true);
  });

  it("the Dockerfile's base image is a release engines admits", () => {
    expect(image).toMatch(/^\d+\.\d+\.\d+$/);
    expect(semver.satisfies(image, engines)).toBe(true);
  });

  it('every dependency runs on .nvmrc, the image, and the first release of every line engines admits', () => {
    const lowest = new semver.Range(engines).set.map(
      (comparators) => semver.minVersion(new semver.Range(comparators.map((c) => c.value).join(' ')))!.version,
    );
    expect(lowest.length).toBeGreaterThan(0);
    expect(declared.length).toBeGreaterThan(100);
    for (const version of [nvmrc, image, ...lowest])
      expect({ version, refusing: refusing(version) }).toEqual({ version, refusing: [] });
  });
});
