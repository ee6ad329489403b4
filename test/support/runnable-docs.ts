import fs from 'node:fs';
import path from 'node:path';

/**
 * The docs convention: a ```bash fence right after a line `<!-- runnable -->` is a runnable block;
 * a ```text fence right after it lists lines its stdout must contain, in order (`...` inside a line
 * matches anything). All runnable blocks of one markdown file run in order in one bash process.
 */
export interface RunnableBlock {
  /** 1-based line of the ```bash fence. */
  line: number;
  code: string;
  /** Lines the block's stdout must contain, in order; empty when no ```text fence follows. */
  expected: string[];
}

export const RUNNABLE_MARKER = '<!-- runnable -->';

/** README.md and every markdown file under docs/ (sorted), relative to `root`. */
export function markdownFiles(root: string): string[] {
  const docs = path.join(root, 'docs');
  const found = fs.existsSync(docs)
    ? fs
        .readdirSync(docs, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join('docs', f))
        .sort()
    : [];
  return ['README.md', ...found];
}

/** The fenced block opening at `lines[start]` (```lang): its language, body and the index after it. */
function fence(lines: string[], start: number): { lang: string; body: string[]; end: number } | null {
  const open = /^```(\w*)\s*$/.exec(lines[start] ?? '');
  if (!open) return null;
  const body: string[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    if (/^```\s*$/.test(lines[i])) return { lang: open[1], body, end: i + 1 };
    body.push(lines[i]);
  }
  throw new Error(`unclosed fence at line ${start + 1}`);
}

export function runnableBlocks(markdown: string): RunnableBlock[] {
  const lines = markdown.split('\n');
  const blocks: RunnableBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== RUNNABLE_MARKER) continue;
    const code = fence(lines, i + 1);
    if (!code || code.lang !== 'bash') {
      throw new Error(`line ${i + 1}: ${RUNNABLE_MARKER} must be followed directly by a \`\`\`bash fence`);
    }
    let next = code.end;
    while (next < lines.length && lines[next].trim() === '') next++;
    const output = fence(lines, next);
    const expected = output?.lang === 'text' ? output.body.filter((l) => l.trim() !== '') : [];
    blocks.push({ line: i + 2, code: code.body.join('\n'), expected });
    i = code.end - 1;
  }
  return blocks;
}

const lineMatcher = (expected: string): RegExp =>
  new RegExp(
    `^${expected
      .trimEnd()
      .split('...')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/**
 * The expected lines not found in `stdout` in order (each matches a whole line, trailing spaces
 * ignored; `...` matches anything): empty when all are there.
 */
export function missingLines(stdout: string, expected: string[]): string[] {
  const actual = stdout.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (let k = 0; k < expected.length; k++) {
    const matcher = lineMatcher(expected[k]);
    while (at < actual.length && !matcher.test(actual[at])) at++;
    if (at === actual.length) return expected.slice(k);
    at++;
  }
  return [];
}

/** A marker line the runner echoes after each block, so each block's stdout can be told apart. */
export const blockEnd = (n: number) => `@@runnable-block-${n}-done@@`;

/** One bash script running every block in order, echoing `blockEnd(n)` after block n. */
export function script(blocks: RunnableBlock[]): string {
  return [
    'set -euo pipefail',
    ...blocks.flatMap((b, n) => [`# block ${n + 1} (line ${b.line})`, b.code, `echo '${blockEnd(n + 1)}'`]),
    '',
  ].join('\n');
}

/** Splits the script's stdout into each finished block's output. */
export function blockOutputs(stdout: string, count: number): string[] {
  const outputs: string[] = [];
  let rest = stdout;
  for (let n = 1; n <= count; n++) {
    const marker = `${blockEnd(n)}\n`;
    const at = rest.indexOf(marker);
    if (at < 0) break;
    outputs.push(rest.slice(0, at));
    rest = rest.slice(at + marker.length);
  }
  return outputs;
}
