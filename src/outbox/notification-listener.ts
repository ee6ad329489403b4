import { Logger } from '@nestjs/common';
import pg from 'pg';

const RECONNECT_DELAY_MS = 1_000;

/**
 * A dedicated connection LISTENing on one channel. Reconnects after any error or end; every
 * (re)connection also calls `onWake`, since notifications sent while it was down are lost (the
 * worker's poll would find those events anyway, this only makes it prompt).
 */
export class NotificationListener {
  private readonly logger = new Logger('outbox');
  private client: pg.Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onWake: () => void,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.stopped) return;
      lost = true;
      this.logger.warn({ err: error?.message }, 'outbox listener connection lost; reconnecting');
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', () => this.onWake());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.onWake();
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
