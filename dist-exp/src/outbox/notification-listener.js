import { Logger } from '@nestjs/common';
import pg from 'pg';
const RECONNECT_DELAY_MS = 1_000;
/**
 * A dedicated connection LISTENing on one channel. Reconnects after any error or end. Used by the
 * outbox worker (wake-ups) and the token cache (revocations).
 */
export class NotificationListener {
    url;
    channel;
    handlers;
    applicationName;
    logger;
    client = null;
    stopped = false;
    retryTimer = null;
    listening = false;
    constructor(url, channel, handlers, context = 'outbox', 
    /** The connection's `application_name` (lets an operator, or a test, find it in pg_stat_activity). */
    applicationName) {
        this.url = url;
        this.channel = channel;
        this.handlers = handlers;
        this.applicationName = applicationName;
        this.logger = new Logger(context);
    }
    /** Whether LISTEN is in place right now (readiness of a worker). */
    get connected() {
        return this.listening;
    }
    async start() {
        this.stopped = false;
        await this.connect();
    }
    async stop() {
        this.stopped = true;
        this.listening = false;
        if (this.retryTimer)
            clearTimeout(this.retryTimer);
        const client = this.client;
        this.client = null;
        await client?.end().catch(() => undefined);
    }
    async connect() {
        if (this.stopped)
            return;
        const client = new pg.Client({
            connectionString: this.url,
            ...(this.applicationName ? { application_name: this.applicationName } : {}),
        });
        this.client = client;
        let lost = false;
        const onLost = (error) => {
            if (lost || this.stopped)
                return;
            lost = true;
            this.listening = false;
            this.logger.warn({ err: error?.message, channel: this.channel }, 'listener connection lost; reconnecting');
            this.handlers.onLost?.();
            void client.end().catch(() => undefined);
            this.scheduleReconnect();
        };
        client.on('error', onLost);
        client.on('end', () => onLost());
        client.on('notification', (n) => this.handlers.onNotification(n.payload ?? ''));
        try {
            await client.connect();
            await client.query(`LISTEN ${this.channel}`);
            this.listening = !lost && !this.stopped;
            this.handlers.onConnected();
        }
        catch (error) {
            onLost(error);
        }
    }
    scheduleReconnect() {
        if (this.stopped)
            return;
        this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            void this.connect();
        }, RECONNECT_DELAY_MS);
        this.retryTimer.unref();
    }
}
/**
 * Whether NOTIFY reaches other connections: PostgreSQL yes; the embedded engine (one PGlite
 * session behind pglite-socket) does not forward notifications to other sockets.
 */
export async function notificationsReachOtherConnections(dataSource) {
    const [{ version }] = await dataSource.query('SELECT version() AS version');
    return !version.includes('PGlite');
}
/**
 * The URL a listener opens its own connection to: DATABASE_DIRECT_URL when set (LISTEN needs a
 * session, which a transaction-mode pooler does not keep), else the DataSource's URL.
 */
export function listenUrl(config, dataSource) {
    return config.DATABASE_DIRECT_URL ?? dataSource.options.url;
}
//# sourceMappingURL=notification-listener.js.map