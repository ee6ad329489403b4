var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { EventEmitter } from 'node:events';
import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { listenUrl, NotificationListener, notificationsReachOtherConnections, } from '../outbox/notification-listener.js';
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
/**
 * Verified API credentials, per process, keyed by client id and checked against the stored
 * secret hash on every hit (a wrong secret never hits). Bounded (LRU, `TOKEN_CACHE_SIZE`) and
 * short-lived (`TOKEN_CACHE_TTL_MS`). A revocation NOTIFYs in its transaction; every replica
 * LISTENs and evicts. While that connection is down entries still expire by TTL, and on every
 * (re)connection the cache is emptied (notifications sent meanwhile are lost).
 */
let TokenCache = class TokenCache {
    config;
    dataSource;
    logger = new Logger('auth');
    entries;
    /** Bumped by every invalidation: a lookup that raced one is not cached. */
    generation = 0;
    listener = null;
    local = false;
    onLocal = (tokenId) => this.evict(tokenId);
    /**
     * Emits `evicted` (token id) after each revocation has been applied here, and `connected` each
     * time the notification connection is (re)established (the cache has just been emptied).
     */
    events = new EventEmitter();
    /** The listener connection's `application_name`, unique per instance. */
    listenerName = `token-cache-${process.pid}-${++instances}`;
    constructor(config, dataSource) {
        this.config = config;
        this.dataSource = dataSource;
        // A worker process serves no authenticated route: no cache, no listener connection.
        this.entries =
            config.ROLE !== 'worker' && config.TOKEN_CACHE_SIZE > 0 && config.TOKEN_CACHE_TTL_MS > 0
                ? // ttlResolution 0: read the clock on every lookup rather than cache it behind a timer
                    // that lru-cache would otherwise set on every lookup.
                    new LRUCache({
                        max: config.TOKEN_CACHE_SIZE,
                        ttl: config.TOKEN_CACHE_TTL_MS,
                        ttlResolution: 0,
                    })
                : null;
    }
    async onApplicationBootstrap() {
        this.local = !(await notificationsReachOtherConnections(this.dataSource));
        if (!this.entries)
            return;
        if (!this.local) {
            this.listener = new NotificationListener(listenUrl(this.config, this.dataSource), TOKEN_REVOKED_CHANNEL, {
                onNotification: (tokenId) => this.evict(tokenId),
                onConnected: () => {
                    this.clear();
                    this.events.emit('connected');
                },
                onLost: () => this.clear(),
            }, 'auth', this.listenerName);
            await this.listener.start();
        }
        else {
            localRevocations.on('revoked', this.onLocal);
        }
        this.logger.log({ invalidation: this.local ? 'in-process' : 'LISTEN/NOTIFY' }, 'token cache on');
    }
    async onApplicationShutdown() {
        localRevocations.off('revoked', this.onLocal);
        await this.listener?.stop();
        this.listener = null;
    }
    /** The cached principal when `secret` matches the cached hash; null otherwise (look it up). */
    get(clientId, secret) {
        const entry = this.entries?.get(clientId);
        return entry && secretMatches(secret, entry.secretHash) ? entry.principal : null;
    }
    /** Read before the database lookup, handed back to `set`. */
    get version() {
        return this.generation;
    }
    set(clientId, secretHash, principal, version) {
        if (this.entries && version === this.generation)
            this.entries.set(clientId, { secretHash, principal });
    }
    /** Inside the revoking transaction: tells every replica (delivered at commit). */
    async announceRevocation(m, tokenId) {
        if (this.local)
            return;
        await m.query('SELECT pg_notify($1, $2)', [TOKEN_REVOKED_CHANNEL, tokenId]);
    }
    /** After the revoking transaction committed: evicts here at once (and in-process peers). */
    revoked(tokenId) {
        if (this.local)
            localRevocations.emit('revoked', tokenId);
        else
            this.evict(tokenId);
    }
    evict(tokenId) {
        this.generation++;
        if (this.entries) {
            for (const [clientId, entry] of this.entries.entries()) {
                if (entry.principal.tokenId === tokenId)
                    this.entries.delete(clientId);
            }
        }
        this.events.emit('evicted', tokenId);
    }
    clear() {
        this.generation++;
        this.entries?.clear();
    }
};
TokenCache = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        DataSource])
], TokenCache);
export { TokenCache };
//# sourceMappingURL=token-cache.js.map