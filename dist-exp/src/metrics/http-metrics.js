/**
 * Counts every HTTP request for the entry middleware (`requestEntry`): in flight while served (a
 * plain number the gauge reads at scrape time), then its duration by method, route template
 * (`/2025-10-13/customers/:customerId`, never the raw path: bounded label values) and status. A
 * request no route matched is `route="unmatched"`.
 */
export function httpObserver(metrics) {
    const duration = metrics.httpRequestDuration;
    return {
        start: () => {
            metrics.requestsInFlight++;
        },
        end: (method, route, status, seconds) => {
            metrics.requestsInFlight--;
            duration.observe({ method, route, status: String(status) }, seconds);
        },
    };
}
//# sourceMappingURL=http-metrics.js.map