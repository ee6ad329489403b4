import { Logger } from '@nestjs/common';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';

const RECONNECT_DELAY_MS = 1_000;

export interface NotificationHandlers {
  /** Each notification's payload. */
  onNotification(payload: string): void;
  /**
   * After every (re)connection, once LISTEN is in place: notifications sent while it was down are
   * lost, so whatever they would have told must be assumed (wake up, drop caches).
   */
  onConnected(): void;
  /** The connection dropped (it reconnects by itself). */
  onLost?(): void;
}

/**
 * A dedicated connection LISTENing on one channel. Reconnects after any error or end. Used by the
 * outbox worker (wake-ups) and the token cache (revocations); the only place that LISTENs (the
 * senders NOTIFY with `pg_notify` in their own transactions).
 */
export class NotificationListener {
  private readonly logger: Logger;
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private listening = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: NotificationHandlers,
    /** The logger context of its lines (the area it serves). */
    context = 'database',
    /** The connection's `application_name` (lets an operator, or a test, find it in pg_stat_activity). */
    private readonly applicationName?: string,
  ) {
    this.logger = new Logger(context);
  }

  /** Whether LISTEN is in place right now (readiness of a worker). */
  get connected(): boolean {
    return this.listening;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      ...(this.applicationName ? { application_name: this.applicationName } : {}),
    });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.stopped) return;
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
    } catch (error) {
      onLost(error as Error);
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
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
export async function notificationsReachOtherConnections(dataSource: DataSource): Promise<boolean> {
  const [{ version }] = await dataSource.query<Array<{ version: string }>>('SELECT version() AS version');
  return !version.includes('PGlite');
}

/**
 * The URL a listener opens its own connection to: DATABASE_DIRECT_URL when set (LISTEN needs a
 * session, which a transaction-mode pooler does not keep), else the DataSource's URL.
 */
export function listenUrl(config: AppConfig, dataSource: DataSource): string {
  return config.DATABASE_DIRECT_URL ?? (dataSource.options as { url?: string }).url!;
}
