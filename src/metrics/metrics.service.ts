import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** Outcomes a card authorization ends with (the cards area counts each decision once). */
export type CardAuthorizationOutcome = 'approved' | 'declined' | 'error';
/** Outcomes an agent execution ends with (the agents area counts each execution once). */
export type AgentExecutionOutcome = 'executed' | 'pending_approval' | 'rejected' | 'failed';

/** A source of gauge values read at scrape time (e.g. the outbox's pending count). */
export type MetricsCollector = () => Promise<void>;

/** The pg Pool behind TypeORM's postgres driver (only the counters we read). */
interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

/**
 * The process's Prometheus metrics (`prom-client`), one registry per application instance (tests
 * run several apps in one process). Served by `MetricsServer` on METRICS_PORT, never on the API
 * port. Areas count their own outcomes through the named metrics here, e.g.
 * `metrics.cardAuthorizations.inc({ outcome: 'approved' })`; gauges whose value lives elsewhere
 * register a collector (`onCollect`) that runs at scrape time only.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /** Counted by `httpObserver` as a plain number, published at scrape time. */
  requestsInFlight = 0;

  readonly httpRequestsInFlight: Gauge = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests being served right now',
    registers: [this.registry],
    collect: () => this.httpRequestsInFlight.set(this.requestsInFlight),
  });

  readonly dbPoolConnections = new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the database pool by state (total, idle, in_use), and clients waiting for one (waiting)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly dbPoolMax = new Gauge({
    name: 'db_pool_max_connections',
    help: 'The database pool size (DB_POOL_SIZE)',
    registers: [this.registry],
  });

  readonly outboxPendingEvents = new Gauge({
    name: 'outbox_pending_events',
    help: 'Webhook events not yet delivered or given up (all platforms; the same value on every replica)',
    registers: [this.registry],
  });

  readonly outboxOldestPendingAge = new Gauge({
    name: 'outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook event (the delivery lag); 0 when none is pending',
    registers: [this.registry],
  });

  readonly umaSettlementUnresolved = new Gauge({
    name: 'uma_settlement_unresolved',
    help: 'UMA payments sent by this deployment and still unresolved past UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS (the same value on every replica)',
    registers: [this.registry],
  });

  readonly umaSettlementOldestUnresolved = new Gauge({
    name: 'uma_settlement_oldest_unresolved_seconds',
    help: 'Age of the oldest unresolved UMA payment sent by this deployment; 0 when none',
    registers: [this.registry],
  });

  readonly railTransactionsOverdue = new Gauge({
    name: 'rail_transactions_overdue',
    help: "Outgoing rail transactions still PROCESSING past their rail's expected settlement time",
    registers: [this.registry],
  });

  readonly auditUnsealedEvents = new Gauge({
    name: 'audit_unsealed_events',
    help: 'Audit events appended but not yet linked into their hash chain by the sealer (all platforms)',
    registers: [this.registry],
  });

  readonly auditSealLag = new Gauge({
    name: 'audit_seal_lag_seconds',
    help: 'Age of the oldest audit event not yet sealed into its hash chain (AUDIT_SEAL_INTERVAL_MS bounds it); 0 when none',
    registers: [this.registry],
  });

  readonly sealedValues = new Gauge({
    name: 'sealed_values',
    help: "Secrets at rest sealed by each key-encryption key ('legacy': sealed before key ids); refreshed at most once a minute",
    labelNames: ['key'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: "Webhook delivery attempts recorded by this process's worker, by outcome (delivered, pending = retry scheduled, failed = given up)",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly cardAuthorizations = new Counter<'outcome'>({
    name: 'card_authorizations_total',
    help: 'Card authorization decisions by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly agentExecutions = new Counter<'outcome'>({
    name: 'agent_executions_total',
    help: 'Agent executions by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests refused with 429 RATE_LIMITED, by credential kind (token, agent)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly collectors: MetricsCollector[] = [];

  constructor(private readonly dataSource: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    this.onCollect(() => Promise.resolve(this.collectPool()));
  }

  /** Runs `collector` before every scrape (keep it cheap: one indexed query at most). */
  onCollect(collector: MetricsCollector): void {
    this.collectors.push(collector);
  }

  /** The exposition text (Prometheus format) after running the collectors. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    await Promise.all(this.collectors.map((collect) => collect()));
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private collectPool(): void {
    const pool = (this.dataSource.driver as unknown as { master?: PgPoolCounts }).master;
    if (!pool) return;
    this.dbPoolConnections.set({ state: 'total' }, pool.totalCount);
    this.dbPoolConnections.set({ state: 'idle' }, pool.idleCount);
    this.dbPoolConnections.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    this.dbPoolConnections.set({ state: 'waiting' }, pool.waitingCount);
    if (pool.options?.max !== undefined) this.dbPoolMax.set(pool.options.max);
  }
}
