import { Injectable } from '@nestjs/common';
import { Clock, RealClock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import type { Currency } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { customerNameSql } from './console-names.js';

const DAY_MS = 24 * 3600 * 1000;
/** Payment volume and failed payments: the last 30 days (UTC days, today included). */
export const VOLUME_DAYS = 30;
/** Webhook delivery success and latency: the last 14 days. */
export const WEBHOOK_DAYS = 14;
/** A PENDING or PROCESSING payment untouched this long needs attention. */
export const STUCK_AFTER_MS = 60 * 60 * 1000;
/** How long one platform's overview is served from memory. */
export const OVERVIEW_CACHE_MS = 15_000;
/** Failed and stuck payments listed by name (the counts cover them all). */
const ATTENTION_ROWS = 10;

export interface Money {
  amount: number;
  currency: Currency;
}

export interface BalanceRow {
  currency: Currency;
  /** The platform's own internal accounts in this currency. */
  platform: { available: number; total: number; accounts: number };
  /** The sum over its customers' internal accounts. */
  customers: { available: number; total: number; accounts: number };
}

export interface VolumeRow {
  day: string;
  direction: 'SENT' | 'RECEIVED';
  status: string;
  currency: string;
  count: number;
  amount: number;
}

export interface AttentionRow {
  id: string;
  type: 'OUTGOING' | 'INCOMING';
  status: string;
  reason: 'FAILED' | 'STUCK';
  customerId: string | null;
  customerName: string | null;
  amount: Money;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDay {
  day: string;
  attempts: number;
  succeeded: number;
  /** Succeeded / attempts (0 to 1), null on a day without attempts. */
  successRate: number | null;
  averageLatencyMs: number | null;
  p95LatencyMs: number | null;
}

export interface OverviewView {
  generatedAt: string;
  /** The windows the panels cover (inclusive UTC days). */
  windows: { volumeFrom: string; webhooksFrom: string; to: string };
  balances: BalanceRow[];
  volume: { days: string[]; rows: VolumeRow[] };
  attention: { failed: number; stuck: number; stuckAfterMinutes: number; rows: AttentionRow[] };
  webhooks: { days: WebhookDay[]; failedEvents: number; pendingEvents: number };
  approvals: {
    pendingActions: number;
    oldestActionAt: string | null;
    pendingIncoming: number;
    oldestIncomingAt: string | null;
    /** Seconds since the oldest of both was created (null when none is pending). */
    oldestAgeSeconds: number | null;
  };
  cards: Record<string, number>;
}

/** The internal accounts' balances (kept by the ledger with each posting; available = balance - held). */
const BALANCES_SQL = `
  SELECT currency, customer_id IS NULL AS platform_owned, count(*)::int AS accounts,
         COALESCE(sum(balance), 0)::text AS total, COALESCE(sum(balance - held), 0)::text AS available
    FROM internal_accounts
   WHERE platform_id = $1
   GROUP BY currency, customer_id IS NULL
   ORDER BY currency`;

/** Sent (outgoing) and received (incoming) per UTC day, status and currency. */
const VOLUME_SQL = `
  SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, 'SENT' AS direction, status,
         sending_currency AS currency, count(*)::int AS count, sum(sent_amount)::text AS amount
    FROM outgoing_transactions
   WHERE platform_id = $1 AND created_at >= $2 AND created_at <= $3
   GROUP BY 1, 3, 4
  UNION ALL
  SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'RECEIVED', status, currency, count(*)::int,
         sum(received_amount)::text
    FROM incoming_transactions
   WHERE platform_id = $1 AND created_at >= $2 AND created_at <= $3
   GROUP BY 1, 3, 4
   ORDER BY 1, 2, 3, 4`;

/**
 * Failed payments of the window, and those PENDING or PROCESSING untouched since $4 (stuck; not an
 * incoming payment still inside the platform's approval window): counts and the latest few.
 */
const ATTENTION_SQL = `
  WITH t AS (
    SELECT id, 'OUTGOING' AS type, status, customer_id, sent_amount AS amount, sending_currency AS currency,
           failure_reason, created_at, updated_at
      FROM outgoing_transactions
     WHERE platform_id = $1 AND created_at >= $2 AND created_at <= $3
       AND (status = 'FAILED' OR (status IN ('PENDING', 'PROCESSING') AND updated_at < $4))
    UNION ALL
    SELECT id, 'INCOMING', status, customer_id, received_amount, currency, failure_reason, created_at, updated_at
      FROM incoming_transactions
     WHERE platform_id = $1 AND created_at >= $2 AND created_at <= $3
       AND (status = 'FAILED' OR (status IN ('PENDING', 'PROCESSING') AND updated_at < $4
            -- waiting for the platform's decision within its window: an approval (its own panel), not stuck
            AND NOT (status = 'PENDING' AND decide_by IS NOT NULL AND decide_by > $3)))
  ), ranked AS (
    SELECT t.*, CASE WHEN status = 'FAILED' THEN 'FAILED' ELSE 'STUCK' END AS reason,
           row_number() OVER (PARTITION BY status = 'FAILED' ORDER BY created_at DESC, id DESC) AS n,
           count(*) OVER (PARTITION BY status = 'FAILED')::int AS total
      FROM t
  )
  SELECT r.id, r.type, r.status, r.reason, r.customer_id, ${customerNameSql('c')} AS customer_name,
         r.amount::text AS amount, r.currency, r.failure_reason, r.created_at, r.updated_at, r.total
    FROM ranked r LEFT JOIN customers c ON c.id = r.customer_id AND c.platform_id = $1
   WHERE r.n <= ${ATTENTION_ROWS}
   ORDER BY r.reason, r.created_at DESC, r.id DESC`;

/** Delivery attempts of the platform's recent events per UTC day: how many succeeded (2xx), and how fast. */
const WEBHOOKS_SQL = `
  SELECT to_char(a.attempted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS attempts,
         count(*) FILTER (WHERE a.response_status BETWEEN 200 AND 299)::int AS succeeded,
         round(avg(a.duration_ms))::int AS average_ms,
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY a.duration_ms))::int AS p95_ms,
         NULL::int AS failed_events, NULL::int AS pending_events
    FROM outbox_events e JOIN outbox_attempts a ON a.platform_id = e.platform_id AND a.event_id = e.id
   WHERE e.platform_id = $1 AND e.created_at >= $2 AND a.attempted_at >= $2
   GROUP BY 1
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, NULL,
         count(*) FILTER (WHERE status = 'FAILED')::int, count(*) FILTER (WHERE status = 'PENDING')::int
    FROM outbox_events
   WHERE platform_id = $1 AND created_at >= $2
   ORDER BY 1`;

/** Pending agent actions and incoming payments awaiting the platform's decision: how many, and the oldest. */
const APPROVALS_SQL = `
  SELECT (SELECT count(*) FROM agent_actions WHERE platform_id = $1 AND status = 'PENDING_APPROVAL')::int AS actions,
         (SELECT min(created_at) FROM agent_actions WHERE platform_id = $1 AND status = 'PENDING_APPROVAL') AS oldest_action,
         (SELECT count(*) FROM incoming_transactions WHERE platform_id = $1 AND status = 'PENDING' AND decide_by IS NOT NULL)::int AS incoming,
         (SELECT min(created_at) FROM incoming_transactions WHERE platform_id = $1 AND status = 'PENDING' AND decide_by IS NOT NULL) AS oldest_incoming,
         (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM cards WHERE platform_id = $1 GROUP BY status) s) AS cards`;

interface BalanceSqlRow {
  currency: string;
  platform_owned: boolean;
  accounts: number;
  total: string;
  available: string;
}

const utcDay = (t: Date) => t.toISOString().slice(0, 10);

/**
 * The console's overview (`GET /console/api/overview`): balances, payment volume, failed and stuck
 * payments, webhook delivery and pending approvals, one SQL statement per panel over a bounded
 * window (indexes: 1767229000000-ConsoleOverviewIndexes), all scoped to the session's platform,
 * kept in memory for OVERVIEW_CACHE_MS per platform (real time) so a wall of open consoles costs
 * one computation per platform and period. New panels (stablecoins, wallets, settlements) add a
 * statement and a member here and a section on the page.
 */
@Injectable()
export class ConsoleOverviewService {
  private readonly cache = new Map<string, { until: number; view: Promise<OverviewView> }>();

  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
  ) {}

  overview(platformId: string): Promise<OverviewView> {
    const now = this.realClock.now().getTime();
    const cached = this.cache.get(platformId);
    if (cached && cached.until > now) return cached.view;
    const view = this.compute(platformId);
    this.cache.set(platformId, { until: now + OVERVIEW_CACHE_MS, view });
    view.catch(() => this.cache.delete(platformId));
    for (const [key, entry] of this.cache) if (entry.until <= now) this.cache.delete(key);
    return view;
  }

  private async compute(platformId: string): Promise<OverviewView> {
    const now = this.clock.now();
    const realNow = this.realClock.now();
    const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const volumeFrom = new Date(startOfToday - (VOLUME_DAYS - 1) * DAY_MS);
    const realToday = Date.UTC(realNow.getUTCFullYear(), realNow.getUTCMonth(), realNow.getUTCDate());
    const webhooksFrom = new Date(realToday - (WEBHOOK_DAYS - 1) * DAY_MS);
    const stuckBefore = new Date(now.getTime() - STUCK_AFTER_MS);

    const balances = await this.tx.query<BalanceSqlRow[]>(BALANCES_SQL, [platformId]);
    const volume = await this.tx.query<Array<VolumeRow & { amount: string }>>(VOLUME_SQL, [
      platformId,
      volumeFrom,
      now,
    ]);
    const attention = await this.tx.query<AttentionSqlRow[]>(ATTENTION_SQL, [platformId, volumeFrom, now, stuckBefore]);
    const webhooks = await this.tx.query<WebhookSqlRow[]>(WEBHOOKS_SQL, [platformId, webhooksFrom]);
    const [approvals] = await this.tx.query<ApprovalsSqlRow[]>(APPROVALS_SQL, [platformId]);

    const oldest = [approvals.oldest_action, approvals.oldest_incoming]
      .filter((d): d is Date => d !== null)
      .sort((a, b) => a.getTime() - b.getTime())[0];
    const counts = webhooks.find((w) => w.day === null);
    return {
      generatedAt: now.toISOString(),
      windows: { volumeFrom: utcDay(volumeFrom), webhooksFrom: utcDay(webhooksFrom), to: utcDay(now) },
      balances: this.balances(balances),
      volume: {
        days: Array.from({ length: VOLUME_DAYS }, (_, i) => utcDay(new Date(volumeFrom.getTime() + i * DAY_MS))),
        rows: volume.map((r) => ({ ...r, amount: Number(r.amount) })),
      },
      attention: {
        failed: attention.find((r) => r.reason === 'FAILED')?.total ?? 0,
        stuck: attention.find((r) => r.reason === 'STUCK')?.total ?? 0,
        stuckAfterMinutes: STUCK_AFTER_MS / 60_000,
        rows: attention.map((r) => ({
          id: formatId('Transaction', r.id),
          type: r.type,
          status: r.status,
          reason: r.reason,
          customerId: r.customer_id === null ? null : formatId('Customer', r.customer_id),
          customerName: r.customer_id === null ? null : r.customer_name,
          amount: { amount: Number(r.amount), currency: currencyInfo(r.currency) },
          failureReason: r.failure_reason,
          createdAt: r.created_at.toISOString(),
          updatedAt: r.updated_at.toISOString(),
        })),
      },
      webhooks: {
        days: Array.from({ length: WEBHOOK_DAYS }, (_, i) => {
          const day = utcDay(new Date(webhooksFrom.getTime() + i * DAY_MS));
          const w = webhooks.find((r) => r.day === day);
          return {
            day,
            attempts: w?.attempts ?? 0,
            succeeded: w?.succeeded ?? 0,
            successRate: w?.attempts ? w.succeeded! / w.attempts : null,
            averageLatencyMs: w?.average_ms ?? null,
            p95LatencyMs: w?.p95_ms ?? null,
          };
        }),
        failedEvents: counts?.failed_events ?? 0,
        pendingEvents: counts?.pending_events ?? 0,
      },
      approvals: {
        pendingActions: approvals.actions,
        oldestActionAt: approvals.oldest_action?.toISOString() ?? null,
        pendingIncoming: approvals.incoming,
        oldestIncomingAt: approvals.oldest_incoming?.toISOString() ?? null,
        oldestAgeSeconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : null,
      },
      cards: approvals.cards ?? {},
    };
  }

  private balances(rows: BalanceSqlRow[]): BalanceRow[] {
    const byCurrency = new Map<string, BalanceRow>();
    for (const r of rows) {
      const row = byCurrency.get(r.currency) ?? {
        currency: currencyInfo(r.currency),
        platform: { available: 0, total: 0, accounts: 0 },
        customers: { available: 0, total: 0, accounts: 0 },
      };
      row[r.platform_owned ? 'platform' : 'customers'] = {
        available: Number(r.available),
        total: Number(r.total),
        accounts: r.accounts,
      };
      byCurrency.set(r.currency, row);
    }
    return [...byCurrency.values()];
  }
}

interface AttentionSqlRow {
  id: string;
  type: 'OUTGOING' | 'INCOMING';
  status: string;
  reason: 'FAILED' | 'STUCK';
  customer_id: string | null;
  customer_name: string | null;
  amount: string;
  currency: string;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  total: number;
}

interface WebhookSqlRow {
  day: string | null;
  attempts: number | null;
  succeeded: number | null;
  average_ms: number | null;
  p95_ms: number | null;
  failed_events: number | null;
  pending_events: number | null;
}

interface ApprovalsSqlRow {
  actions: number;
  oldest_action: Date | null;
  incoming: number;
  oldest_incoming: Date | null;
  cards: Record<string, number> | null;
}
