import { setTimeout as delay } from 'node:timers/promises';
import { Lifecycle } from './lifecycle.js';
/** How often, while the listener closes, keep-alive connections that went idle are closed. */
const IDLE_SWEEP_MS = 50;
/** Stops accepting connections and resolves once every open one has ended. */
async function closeListener(server) {
    if (!server.listening)
        return;
    const closed = new Promise((resolve) => server.close(() => resolve()));
    // A kept-alive connection whose request was in flight goes idle when its answer is written;
    // close those as they appear (Node closes only the idle ones of the moment close() is called).
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    try {
        await closed;
    }
    finally {
        clearInterval(sweep);
    }
}
/**
 * The SIGTERM/SIGINT sequence: readiness turns 503 (and answers carry `Connection: close`), the
 * server keeps serving for SHUTDOWN_DRAIN_DELAY_MS so load balancers stop routing here, the
 * listener closes and in-flight requests finish, then the application closes (the worker
 * finishes or releases its deliveries, the metrics listener and the pool close) and `stopDatabase`
 * (the embedded engine). Resolves true when all of it finished within SHUTDOWN_GRACE_MS; false if
 * the grace ran out first (the caller exits non-zero).
 */
export async function gracefulShutdown(app, config, logger, stopDatabase) {
    app.get(Lifecycle).drain();
    const sequence = (async () => {
        if (config.SHUTDOWN_DRAIN_DELAY_MS > 0)
            await delay(config.SHUTDOWN_DRAIN_DELAY_MS);
        await closeListener(app.getHttpServer());
        logger.info('HTTP listener closed; in-flight requests finished');
        await app.close();
        await stopDatabase();
        return true;
    })();
    const grace = delay(config.SHUTDOWN_GRACE_MS, false, { ref: false });
    const finished = await Promise.race([sequence, grace]);
    if (!finished)
        logger.error({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutdown did not finish within the grace period');
    return finished;
}
//# sourceMappingURL=shutdown.js.map