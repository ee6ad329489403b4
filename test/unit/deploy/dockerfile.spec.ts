import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/**
 * The Dockerfile, checked statically (there is no Docker engine here): stages, the pinned LTS base,
 * production dependencies only in the final stage, a non-root USER, the HEALTHCHECK, and that every
 * file the image runs is one the build emits.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions with line continuations joined and comments dropped, split into stages. */
function parse(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\S+)\s+(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest.trim() };
    if (instruction.keyword === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(instruction.args) ?? [];
      stages.push({ from: from.replace(/\$\{(\w+)\}/g, (_, v: string) => args[v] ?? ''), name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value = ''] = instruction.args.split('=');
      args[name] = value;
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return { args, stages };
}

const { stages } = parse(dockerfile);
const final = stages.at(-1)!;
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const execForm = (args: string): string[] => JSON.parse(args.replace(/^CMD\s+/, '')) as string[];

/** `dist/src/x.js` is emitted from `src/x.ts` (tsconfig.build.json); after `npm run build` it exists too. */
function assertBuilt(file: string): void {
  expect(file).toMatch(/^dist\/src\/.+\.js$/);
  const source = file.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  expect(existsSync(path.join(ROOT, source))).toBe(true);
  if (existsSync(path.join(ROOT, 'dist/src'))) expect(existsSync(path.join(ROOT, file))).toBe(true);
}

describe('Dockerfile', () => {
  it('is multi-stage on a pinned Node LTS base', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      const [, major] = /^node:(\d+)\.\d+\.\d+-/.exec(stage.from) ?? [];
      expect({ from: stage.from, major }).toEqual({ from: stage.from, major: expect.stringMatching(/^\d+$/) });
      expect(Number(major) % 2).toBe(0); // even majors are the LTS lines
      expect(Number(major)).toBeGreaterThanOrEqual(22);
    }
  });

  it('runs as a non-root user in the final stage', () => {
    const users = of(final, 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('has only production dependencies in the final stage', () => {
    // The final stage installs nothing itself and takes node_modules from a stage that ran `npm ci --omit=dev`.
    for (const run of of(final, 'RUN')) expect(run.args).not.toMatch(/\bnpm (ci|install|i)\b/);
    const copy = of(final, 'COPY').find((i) => /node_modules/.test(i.args));
    const [, from] = /--from=(\S+)/.exec(copy?.args ?? '') ?? [];
    const source = stages.find((s) => s.name === from);
    expect(source).toBeDefined();
    const installs = of(source!, 'RUN').filter((i) => /\bnpm (ci|install)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install.args).toMatch(/--omit=dev/);
    // And the service imports only packages that install (`npm ci --omit=dev` keeps the lockfile's non-dev ones).
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const imported = importedPackages(path.join(ROOT, 'src'));
    expect(imported).toContain('@nestjs/core');
    const missing = [...imported].filter((name) => {
      const entry = lock.packages[`node_modules/${name}`];
      return !entry || entry.dev === true;
    });
    expect(missing).toEqual([]);
  });

  it('checks /healthz and runs entrypoints the build emits', () => {
    const [healthcheck] = of(final, 'HEALTHCHECK');
    expect(healthcheck).toBeDefined();
    const probe = execForm(healthcheck.args.replace(/^(--\S+\s+)*CMD\s+/, ''));
    expect(probe[0]).toBe('node');
    assertBuilt(probe[1]);
    expect(readFileSync(path.join(ROOT, probe[1].replace(/^dist\//, '').replace(/\.js$/, '.ts')), 'utf8')).toContain(
      '/healthz',
    );
    const [cmd] = of(final, 'CMD');
    const command = execForm(cmd.args);
    expect(command).toEqual(['node', 'dist/src/main.js']);
    assertBuilt(command[1]);
    // The migration entrypoint the Job runs.
    assertBuilt('dist/src/cli.js');
    expect(readFileSync(path.join(ROOT, 'src/cli.ts'), 'utf8')).toMatch(/case 'migrate'/);
    // ROLE selects api/worker/all (src/config/app-config.ts); the image defaults to all.
    expect(
      of(final, 'ENV')
        .map((i) => i.args)
        .join(' '),
    ).toMatch(/ROLE=all/);
  });

  it('has a .dockerignore that keeps node_modules, dist, .git and local data out of the context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split(/\r?\n/);
    for (const entry of ['node_modules', 'dist', '.git', '.data', '.env']) expect(ignored).toContain(entry);
  });
});

/** Bare package names imported at run time (not `import type`) by the service's sources. */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, typeOnly, spec] of text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^'.][^']*)'/gm)) {
      if (typeOnly || spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  return names;
}
