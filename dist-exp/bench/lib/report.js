import { median } from './stats.js';
const f0 = (n) => Math.round(n).toLocaleString('en-US');
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);
export function ratios(r) {
    return r.a.map((a, i) => a.perSecond / r.b[i].perSecond);
}
function side(ms) {
    return `${f0(median(ms.map((m) => m.perSecond)))} req/s, p50 ${f1(median(ms.map((m) => m.p50)))} ms, p99 ${f1(median(ms.map((m) => m.p99)))} ms`;
}
/** The markdown of a whole run. */
export function renderResults(results, meta) {
    const pairs = results.filter((r) => r.kind === 'pair');
    const lines = [
        '# Benchmark results',
        '',
        `Written by \`npm run bench${meta.quick ? ' -- --quick' : ''}\` on ${meta.date} (${meta.machine}). Each path ` +
            `is measured beside its reference in the same run, interleaved A, B, A, B (${meta.rounds} rounds of ` +
            `${meta.seconds} s each, ${meta.connections} concurrent connections, after a warm-up). Figures are the ` +
            'medians over the rounds; the ratio is path/reference per round: median [min-max]. See `README.md` here ' +
            'for what each reference is.',
        '',
        '| engine | path | reference | path figures | reference figures | ratio [spread] | target |',
        '|---|---|---|---|---|---|---|',
    ];
    for (const r of pairs) {
        const rs = ratios(r);
        const ratio = median(rs);
        const met = r.target === undefined ? '' : `>= ${r.target} ${ratio >= r.target ? '(met)' : '(not met)'}`;
        lines.push(`| ${r.engine} | ${r.path} | ${r.reference} | ${side(r.a)} | ${side(r.b)} | ${f2(ratio)} [${f2(Math.min(...rs))}-${f2(Math.max(...rs))}] | ${met} |`);
    }
    for (const t of results.filter((r) => r.kind === 'table')) {
        lines.push('', `## ${t.title}`, '', t.markdown);
    }
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=report.js.map