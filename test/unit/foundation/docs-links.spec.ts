import fs from 'node:fs';
import path from 'node:path';
import { markdownFiles } from '../../support/runnable-docs.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The markdown outside fenced code blocks. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  const text = prose(fs.readFileSync(file, 'utf8'));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

describe('links between README.md and docs/', () => {
  const files = markdownFiles(ROOT);

  it('covers the README and the topic docs', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', 'docs/architecture.md']));
  });

  it.each(files)('%s: every relative link reaches a file (and a heading)', (file) => {
    const text = prose(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [relative, anchor] = target.split('#');
        const resolved = relative ? path.resolve(path.dirname(path.join(ROOT, file)), relative) : path.join(ROOT, file);
        if (!fs.existsSync(resolved)) return true;
        return anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor);
      });
    expect(broken).toEqual([]);
  });

  it.each(files.filter((f) => f.startsWith('docs/')))('%s starts with a title and a two-line summary', (file) => {
    const [title, blank, first, second, after] = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    expect({ title: /^# \S/.test(title), blank, summary: Boolean(first.trim() && second.trim()), after }).toEqual({
      title: true,
      blank: '',
      summary: true,
      after: '',
    });
  });
});
