import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './stats.js';
const run = promisify(execFile);
const PGBENCH = process.env.PGBENCH ?? '/usr/bin/pgbench';
/**
 * Turns a statement with `$n` parameters into pgbench script text: each `$n` (with its cast, if
 * any) becomes `values[n]`, an SQL expression or a pgbench `:variable` (sent as a parameter under
 * `-M prepared`). The statement text is otherwise the endpoint's own.
 */
export function pgbenchStatement(sql, values) {
    const text = sql.replace(/\$(\d+)/g, (all, n) => {
        const value = values[Number(n)];
        if (value === undefined)
            throw new Error(`no value for $${n}`);
        return value;
    });
    return `${text.replace(/\s+/g, ' ').trim()};`;
}
/** A quoted SQL literal. */
export const literal = (value) => `'${value.replace(/'/g, "''")}'`;
/** `pgbench -M prepared` running `script` as one transaction per line group; per-transaction latency from its log. */
export async function pgbenchRun(url, script, opts) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-pgbench-'));
    try {
        const file = join(dir, 'script.sql');
        await writeFile(file, script);
        const args = [
            '-n',
            '-M',
            'prepared',
            '-c',
            String(opts.clients),
            '-j',
            '2',
            '-T',
            String(opts.seconds),
            '-f',
            file,
            '-l',
            `--log-prefix=${join(dir, 'log')}`,
            ...Object.entries(opts.variables ?? {}).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
            url,
        ];
        const { stdout } = await run(PGBENCH, args, { maxBuffer: 16 * 1024 * 1024 });
        const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
        const failed = /number of failed transactions: (\d+)/.exec(stdout);
        if (!tps)
            throw new Error(`pgbench output not understood:\n${stdout}`);
        if (failed && Number(failed[1]) > 0)
            throw new Error(`pgbench: ${failed[1]} failed transactions`);
        const latencies = [];
        for (const name of await readdir(dir)) {
            if (!name.startsWith('log'))
                continue;
            for (const line of (await readFile(join(dir, name), 'utf8')).split('\n')) {
                const fields = line.split(' ');
                if (fields.length >= 3)
                    latencies.push(Number(fields[2]) / 1000);
            }
        }
        latencies.sort((a, b) => a - b);
        return { perSecond: Number(tps[1]), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    }
    finally {
        await rm(dir, { recursive: true, force: true });
    }
}
//# sourceMappingURL=pgbench.js.map