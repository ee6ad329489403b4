import helmet from 'helmet';
/** What helmet sets with `options`, taken once: the same on every response (no nonce). */
function headersOf(options) {
    const headers = [];
    let passed = false;
    const res = {
        setHeader: (name, value) => {
            headers.push([name, String(value)]);
        },
        removeHeader: () => undefined, // X-Powered-By: Express never sets it here (disabled)
    };
    helmet(options)({}, res, (err) => {
        if (err)
            throw err;
        passed = true;
    });
    if (!passed)
        throw new Error('helmet did not complete synchronously: its headers cannot be precomputed');
    return headers;
}
/**
 * The security headers (`helmet`), computed once at startup and set by the entry middleware
 * instead of running helmet's dozen middlewares per request.
 * - `api`, on every JSON answer: what OWASP's REST Security Cheat Sheet asks of an API (HSTS,
 *   `nosniff`, frame denial, a CSP allowing nothing, no referrer, same-origin resource policy);
 *   the headers that only steer how a browser runs an HTML page (cross-origin opener policy,
 *   origin-agent clustering, DNS prefetch, IE8 downloads, Flash policies, the XSS auditor) are off.
 * - `docs`, on `/docs` (the Swagger UI, an HTML page): helmet's defaults, whose CSP the UI fits.
 */
export function securityHeaders() {
    return {
        api: headersOf({
            contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
            crossOriginOpenerPolicy: false,
            originAgentCluster: false,
            xDnsPrefetchControl: false,
            xDownloadOptions: false,
            xPermittedCrossDomainPolicies: false,
            xXssProtection: false,
        }),
        docs: headersOf(undefined),
    };
}
/**
 * CORS only when CORS_ORIGINS is set, and the time a client may take to send its request
 * (REQUEST_TIMEOUT_MS; Node answers 408 through the parser-error handler). The security headers
 * are set by the entry middleware (`securityHeaders`).
 */
export function applyProtection(app, config) {
    if (config.CORS_ORIGINS) {
        const origins = config.CORS_ORIGINS.split(',')
            .map((o) => o.trim())
            .filter(Boolean);
        app.enableCors({
            origin: origins.includes('*') ? true : origins,
            methods: ['GET', 'POST', 'PATCH', 'DELETE'],
            allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
            exposedHeaders: [
                'X-Request-Id',
                'Retry-After',
                'RateLimit-Limit',
                'RateLimit-Remaining',
                'RateLimit-Reset',
                'RateLimit-Policy',
                'Idempotent-Replayed',
                'x-should-retry',
            ],
            maxAge: 600,
        });
    }
    const server = app.getHttpServer();
    server.requestTimeout = config.REQUEST_TIMEOUT_MS;
    server.headersTimeout = Math.min(server.headersTimeout, config.REQUEST_TIMEOUT_MS);
}
//# sourceMappingURL=security.js.map