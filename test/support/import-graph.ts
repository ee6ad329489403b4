import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import between two areas of `src/`: the importing file and the imported one. */
export interface AreaImport {
  from: string;
  to: string;
  file: string;
  target: string;
}

/**
 * The area of a file under `src/`: its first folder; `(top)` for the composition files at the root
 * of `src/` (main.ts, app.module.ts, error-catalogue.ts, http-pipeline.ts, ...) and for
 * `database/schema.ts`, the entity list the data source is composed from.
 */
export function areaOf(path: string): string {
  if (path === 'database/schema.ts') return '(top)';
  const slash = path.indexOf('/');
  return slash < 0 ? '(top)' : path.slice(0, slash);
}

function sources(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(root, full);
    return entry.name.endsWith('.ts') ? [relative(root, full)] : [];
  });
}

/** Every relative import (static, `import type`, dynamic) in `src/` that crosses from one area to another. */
export function areaImports(src: string): AreaImport[] {
  return sources(src).flatMap((file) => {
    const text = readFileSync(join(src, file), 'utf8');
    return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g)]
      .map((m) => relative(src, resolve(src, dirname(file), m[1])).replace(/\.js$/, '.ts'))
      .map((target) => ({ from: areaOf(file), to: areaOf(target), file, target }))
      .filter((i) => i.from !== i.to && i.from !== '(top)');
  });
}

/** area -> the areas it imports, sorted. */
export function areaGraph(imports: AreaImport[]): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const i of imports) graph.set(i.from, (graph.get(i.from) ?? new Set()).add(i.to));
  return new Map([...graph].sort(([a], [b]) => a.localeCompare(b)).map(([a, to]) => [a, [...to].sort()]));
}

/** The table under a heading of a markdown file: area -> the areas it may import (backquoted names). */
export function documentedGraph(markdown: string, heading: string): Map<string, string[]> {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const graph = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const row = /^\|\s*`([^`]+)`\s*\|(.*)\|$/.exec(line);
    if (!row) continue;
    graph.set(row[1], [...row[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort());
  }
  return new Map([...graph].sort(([a], [b]) => a.localeCompare(b)));
}
