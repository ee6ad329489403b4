/**
 * The benchmark runner: `npm run bench [-- --quick] [-- --no-write] [-- <suite> ...]`.
 *
 * With DATABASE_URL (PostgreSQL) every suite runs against the real app on a scratch database there,
 * then the suites meaningful on the embedded engine run again on a throwaway PGlite; without it,
 * only the embedded engine. Each suite measures a path beside its reference in the same run,
 * interleaved A, B, A, B (see support.ts). A full run rewrites bench/RESULTS.md; `--quick` (2
 * rounds of 1 s, PostgreSQL only, small outbox) prints the table and finishes in under a minute.
 * The `## Notes` section at the end of RESULTS.md is written by hand and kept across rewrites.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBareApp } from './lib/bare-app.js';
import { renderResults } from './lib/report.js';
import { SUITES } from './suites/index.js';
import { benchPlatform, scratchDatabase, startBenchApp } from './support.js';
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const write = !args.includes('--no-write') && (!quick || args.includes('--write'));
const only = args.filter((a) => !a.startsWith('--'));
const suites = SUITES.filter((s) => only.length === 0 || only.includes(s.name));
const adminUrl = process.env.DATABASE_URL;
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 5));
const seconds = Number(process.env.BENCH_RUN_SECONDS ?? (quick ? 1 : 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8);
async function onEngine(engine, results) {
    const list = suites.filter((s) => s.engines.includes(engine));
    if (list.length === 0)
        return;
    const scratch = engine === 'postgres' ? await scratchDatabase(adminUrl, 'bench') : null;
    const app = await startBenchApp(scratch?.url);
    const bare = await startBareApp();
    try {
        const ctx = {
            quick,
            rounds,
            seconds,
            connections,
            app,
            platform: await benchPlatform(app),
            bareUrl: bare.url,
            adminUrl,
        };
        for (const suite of list) {
            const started = Date.now();
            const out = await suite.run(ctx);
            console.log(`[${app.engine}] ${suite.name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
            results.push(...out);
        }
    }
    finally {
        await bare.app.close();
        await app.close();
        await scratch?.drop();
    }
}
async function main() {
    const results = [];
    if (adminUrl)
        await onEngine('postgres', results);
    if (!quick || !adminUrl)
        await onEngine('embedded', results);
    const markdown = renderResults(results, {
        date: new Date().toISOString().slice(0, 10),
        quick,
        rounds,
        seconds,
        connections,
        machine: `${cpus().length} cores, Node ${process.versions.node}`,
    });
    console.log(`\n${markdown}`);
    if (write) {
        const file = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));
        // The hand-written notes (from `## Notes` on) outlive the rewrite.
        const previous = await readFile(file, 'utf8').catch(() => '');
        const notes = previous.indexOf('\n## Notes');
        await writeFile(file, notes >= 0 ? `${markdown.trimEnd()}\n${previous.slice(notes)}` : markdown);
        console.log(`written to ${file}`);
    }
}
main().then(() => process.exit(0), (error) => {
    console.error(error);
    process.exit(1);
});
//# sourceMappingURL=run.js.map