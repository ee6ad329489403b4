import { EventEmitter } from 'node:events';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ClockOffsets } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { listenUrl, NotificationListener, notificationsReachOtherConnections } from '../database/notifications.js';

/** NOTIFY channel carrying `<platform uuid>:<offset ms>` after each advance. */
export const SANDBOX_CLOCK_CHANNEL = 'sandbox_clock_advanced';

/**
 * The embedded engine forwards no NOTIFY between connections and serves one process: every app
 * instance sharing its database is in this process, so advances travel on this bus instead.
 */
const localAdvances = new EventEmitter();
localAdvances.setMaxListeners(0);

/**
 * The offsets of every platform that has a test clock, in memory (only with SANDBOX=true): loaded
 * at boot, updated by each advance here at once and on every replica through LISTEN/NOTIFY (or the
 * in-process bus on the embedded engine), reloaded whole on every (re)connection of the listener
 * (notifications sent while it was down are lost). A platform without a clock costs one Map miss.
 * Offsets only grow (a clock never goes back), so applying the larger of two values is always
 * right whatever order a reload and a notification arrive in.
 */
@Injectable()
export class SandboxClockOffsets extends ClockOffsets implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('sandbox-clock');
  private readonly offsets = new Map<string, number>();
  private listener: NotificationListener | null = null;
  private local = false;
  private readonly onLocal = (payload: string) => this.applyPayload(payload);
  /** Emits `applied` (platform uuid, offset ms) each time an advance has been applied here. */
  readonly events = new EventEmitter();

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  offsetMs(platformId: string): number {
    return this.offsets.get(platformId) ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    // A worker serves no platform request: it never reads a test clock.
    if (this.config.ROLE === 'worker') return;
    this.local = !(await notificationsReachOtherConnections(this.dataSource));
    if (this.local) {
      localAdvances.on('advanced', this.onLocal);
      await this.reload();
    } else {
      this.listener = new NotificationListener(
        listenUrl(this.config, this.dataSource),
        SANDBOX_CLOCK_CHANNEL,
        {
          onNotification: (payload) => this.applyPayload(payload),
          onConnected: () => {
            this.reload().catch((error: unknown) =>
              this.logger.error({ err: error }, 'reloading the sandbox clocks failed'),
            );
          },
        },
        'sandbox-clock',
      );
      await this.listener.start();
      // The first connection reloads too; a failed one must not leave the boot without the clocks.
      await this.reload();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    localAdvances.off('advanced', this.onLocal);
    await this.listener?.stop();
    this.listener = null;
  }

  /** Inside the advancing transaction: tells every replica (delivered at commit). */
  async announce(m: EntityManager, platformId: string, offsetMs: number): Promise<void> {
    if (this.local) return;
    await m.query('SELECT pg_notify($1, $2)', [SANDBOX_CLOCK_CHANNEL, `${platformId}:${offsetMs}`]);
  }

  /** After the advancing transaction committed: applies it here at once (and in in-process peers). */
  advanced(platformId: string, offsetMs: number): void {
    if (this.local) localAdvances.emit('advanced', `${platformId}:${offsetMs}`);
    else this.apply(platformId, offsetMs);
  }

  private async reload(): Promise<void> {
    const rows = await this.dataSource.query<Array<{ platform_id: string; offset_ms: string }>>(
      '/* cross-shard: sandbox-clock-offsets */ SELECT platform_id, offset_ms FROM sandbox_clocks',
    );
    for (const row of rows) this.apply(row.platform_id, Number(row.offset_ms));
  }

  private applyPayload(payload: string): void {
    const [platformId, offset] = payload.split(':');
    const offsetMs = Number(offset);
    if (platformId && Number.isSafeInteger(offsetMs)) this.apply(platformId, offsetMs);
  }

  private apply(platformId: string, offsetMs: number): void {
    if (offsetMs <= (this.offsets.get(platformId) ?? 0)) return;
    this.offsets.set(platformId, offsetMs);
    this.events.emit('applied', platformId, offsetMs);
  }
}
