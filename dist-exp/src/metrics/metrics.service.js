var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
/**
 * The process's Prometheus metrics (`prom-client`), one registry per application instance (tests
 * run several apps in one process). Served by `MetricsServer` on METRICS_PORT, never on the API
 * port. Areas count their own outcomes through the named metrics here, e.g.
 * `metrics.cardAuthorizations.inc({ outcome: 'approved' })`; gauges whose value lives elsewhere
 * register a collector (`onCollect`) that runs at scrape time only.
 */
let MetricsService = class MetricsService {
    dataSource;
    registry = new Registry();
    httpRequestDuration = new Histogram({
        name: 'http_request_duration_seconds',
        help: 'HTTP request duration by method, route template and status code',
        labelNames: ['method', 'route', 'status'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers: [this.registry],
    });
    /** Counted by `httpObserver` as a plain number, published at scrape time. */
    requestsInFlight = 0;
    httpRequestsInFlight = new Gauge({
        name: 'http_requests_in_flight',
        help: 'HTTP requests being served right now',
        registers: [this.registry],
        collect: () => this.httpRequestsInFlight.set(this.requestsInFlight),
    });
    dbPoolConnections = new Gauge({
        name: 'db_pool_connections',
        help: 'Connections of the database pool by state (total, idle, in_use), and clients waiting for one (waiting)',
        labelNames: ['state'],
        registers: [this.registry],
    });
    dbPoolMax = new Gauge({
        name: 'db_pool_max_connections',
        help: 'The database pool size (DB_POOL_SIZE)',
        registers: [this.registry],
    });
    outboxPendingEvents = new Gauge({
        name: 'outbox_pending_events',
        help: 'Webhook events not yet delivered or given up (all platforms; the same value on every replica)',
        registers: [this.registry],
    });
    outboxOldestPendingAge = new Gauge({
        name: 'outbox_oldest_pending_age_seconds',
        help: 'Age of the oldest pending webhook event (the delivery lag); 0 when none is pending',
        registers: [this.registry],
    });
    webhookDeliveries = new Counter({
        name: 'webhook_deliveries_total',
        help: "Webhook delivery attempts recorded by this process's worker, by outcome (delivered, pending = retry scheduled, failed = given up)",
        labelNames: ['outcome'],
        registers: [this.registry],
    });
    cardAuthorizations = new Counter({
        name: 'card_authorizations_total',
        help: 'Card authorization decisions by outcome',
        labelNames: ['outcome'],
        registers: [this.registry],
    });
    agentExecutions = new Counter({
        name: 'agent_executions_total',
        help: 'Agent executions by outcome',
        labelNames: ['outcome'],
        registers: [this.registry],
    });
    rateLimited = new Counter({
        name: 'http_rate_limited_total',
        help: 'Requests refused with 429 RATE_LIMITED, by credential kind (token, agent)',
        labelNames: ['kind'],
        registers: [this.registry],
    });
    collectors = [];
    constructor(dataSource) {
        this.dataSource = dataSource;
        collectDefaultMetrics({ register: this.registry });
        this.onCollect(() => Promise.resolve(this.collectPool()));
    }
    /** Runs `collector` before every scrape (keep it cheap: one indexed query at most). */
    onCollect(collector) {
        this.collectors.push(collector);
    }
    /** The exposition text (Prometheus format) after running the collectors. */
    async scrape() {
        await Promise.all(this.collectors.map((collect) => collect()));
        return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    }
    collectPool() {
        const pool = this.dataSource.driver.master;
        if (!pool)
            return;
        this.dbPoolConnections.set({ state: 'total' }, pool.totalCount);
        this.dbPoolConnections.set({ state: 'idle' }, pool.idleCount);
        this.dbPoolConnections.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.dbPoolConnections.set({ state: 'waiting' }, pool.waitingCount);
        if (pool.options?.max !== undefined)
            this.dbPoolMax.set(pool.options.max);
    }
};
MetricsService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [DataSource])
], MetricsService);
export { MetricsService };
//# sourceMappingURL=metrics.service.js.map