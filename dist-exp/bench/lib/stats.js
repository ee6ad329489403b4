/** Percentiles for the benchmark suites. */
export function percentile(sorted, p) {
    if (sorted.length === 0)
        return NaN;
    const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
    return sorted[Math.max(0, index)];
}
export function median(values) {
    return percentile([...values].sort((a, b) => a - b), 50);
}
//# sourceMappingURL=stats.js.map