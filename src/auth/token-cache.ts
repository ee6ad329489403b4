import { EventEmitter } from 'node:events';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { listenUrl, NotificationListener, notificationsReachOtherConnections } from '../database/notifications.js';
import type { PlatformPrincipal } from './auth.decorators.js';
import { secretMatches } from './secrets.js';

/** NOTIFY channel carrying the id of a revoked token. */
export const TOKEN_REVOKED_CHANNEL = 'api_token_revoked';

/**
 * The embedded engine does not forward NOTIFY between connections, and it serves one process
 * only (its data-dir lock), so every app instance that can share its database lives in this
 * process: revocations travel on this in-process bus instead.
 */
const localRevocations = new EventEmitter();
localRevocations.setMaxListeners(0);
let instances = 0;

interface Entry {
  /** SHA-256 of the secret, as stored: a presented secret must match it (constant time). */
  secretHash: Buffer;
  principal: PlatformPrincipal;
}

/**
 * Verified API credentials, per process, keyed by client id and checked against the stored
 * secret hash on every hit (a wrong secret never hits). Bounded (LRU, `TOKEN_CACHE_SIZE`) and
 * short-lived (`TOKEN_CACHE_TTL_MS`). A revocation NOTIFYs in its transaction; every replica
 * LISTENs and evicts. While that connection is down entries still expire by TTL, and on every
 * (re)connection the cache is emptied (notifications sent meanwhile are lost).
 */
@Injectable()
export class TokenCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('auth');
  private readonly entries: LRUCache<string, Entry> | null;
  /** Bumped by every invalidation: a lookup that raced one is not cached. */
  private generation = 0;
  private listener: NotificationListener | null = null;
  private local = false;
  private readonly onLocal = (tokenId: string) => this.evict(tokenId);
  /**
   * Emits `evicted` (token id) after each revocation has been applied here, and `connected` each
   * time the notification connection is (re)established (the cache has just been emptied).
   */
  readonly events = new EventEmitter();
  /** The listener connection's `application_name`, unique per instance. */
  readonly listenerName = `token-cache-${process.pid}-${++instances}`;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    // A worker process serves no authenticated route: no cache, no listener connection.
    this.entries =
      config.ROLE !== 'worker' && config.TOKEN_CACHE_SIZE > 0 && config.TOKEN_CACHE_TTL_MS > 0
        ? // ttlResolution 0: read the clock on every lookup rather than cache it behind a timer
          // that lru-cache would otherwise set on every lookup.
          new LRUCache<string, Entry>({
            max: config.TOKEN_CACHE_SIZE,
            ttl: config.TOKEN_CACHE_TTL_MS,
            ttlResolution: 0,
          })
        : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.local = !(await notificationsReachOtherConnections(this.dataSource));
    if (!this.entries) return;
    if (!this.local) {
      this.listener = new NotificationListener(
        listenUrl(this.config, this.dataSource),
        TOKEN_REVOKED_CHANNEL,
        {
          onNotification: (tokenId) => this.evict(tokenId),
          onConnected: () => {
            this.clear();
            this.events.emit('connected');
          },
          onLost: () => this.clear(),
        },
        'auth',
        this.listenerName,
      );
      await this.listener.start();
    } else {
      localRevocations.on('revoked', this.onLocal);
    }
    this.logger.log({ invalidation: this.local ? 'in-process' : 'LISTEN/NOTIFY' }, 'token cache on');
  }

  async onApplicationShutdown(): Promise<void> {
    localRevocations.off('revoked', this.onLocal);
    await this.listener?.stop();
    this.listener = null;
  }

  /** The cached principal when `secret` matches the cached hash; null otherwise (look it up). */
  get(clientId: string, secret: string): PlatformPrincipal | null {
    const entry = this.entries?.get(clientId);
    return entry && secretMatches(secret, entry.secretHash) ? entry.principal : null;
  }

  /** Read before the database lookup, handed back to `set`. */
  get version(): number {
    return this.generation;
  }

  set(clientId: string, secretHash: Buffer, principal: PlatformPrincipal, version: number): void {
    if (this.entries && version === this.generation) this.entries.set(clientId, { secretHash, principal });
  }

  /** Inside the revoking transaction: tells every replica (delivered at commit). */
  async announceRevocation(m: EntityManager, tokenId: string): Promise<void> {
    if (this.local) return;
    await m.query('SELECT pg_notify($1, $2)', [TOKEN_REVOKED_CHANNEL, tokenId]);
  }

  /** After the revoking transaction committed: evicts here at once (and in-process peers). */
  revoked(tokenId: string): void {
    if (this.local) localRevocations.emit('revoked', tokenId);
    else this.evict(tokenId);
  }

  private evict(tokenId: string): void {
    this.generation++;
    if (this.entries) {
      for (const [clientId, entry] of this.entries.entries()) {
        if (entry.principal.tokenId === tokenId) this.entries.delete(clientId);
      }
    }
    this.events.emit('evicted', tokenId);
  }

  private clear(): void {
    this.generation++;
    this.entries?.clear();
  }
}
