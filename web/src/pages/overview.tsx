import { useEffect, useState } from 'preact/hooks';
import { consoleGet, Session } from '../api';
import { DailyChart, PALETTE, Series } from '../chart';
import { ErrorNote, Link, Loading, Money, Status, Time, useLoad } from '../ui';

interface Currency {
  code: string;
  name: string;
  decimals: number;
}

/** `GET /console/api/overview` (src/console/console-overview.service.ts). */
export interface Overview {
  generatedAt: string;
  windows: { volumeFrom: string; webhooksFrom: string; to: string };
  balances: Array<{
    currency: Currency;
    platform: { available: number; total: number; accounts: number };
    customers: { available: number; total: number; accounts: number };
  }>;
  volume: {
    days: string[];
    rows: Array<{
      day: string;
      direction: 'SENT' | 'RECEIVED';
      status: string;
      currency: string;
      count: number;
      amount: number;
    }>;
  };
  attention: {
    failed: number;
    stuck: number;
    stuckAfterMinutes: number;
    rows: Array<{
      id: string;
      type: string;
      status: string;
      reason: 'FAILED' | 'STUCK';
      customerId: string | null;
      customerName: string | null;
      amount: { amount: number; currency: Currency };
      failureReason: string | null;
      createdAt: string;
      updatedAt: string;
    }>;
  };
  webhooks: {
    days: Array<{
      day: string;
      attempts: number;
      succeeded: number;
      successRate: number | null;
      averageLatencyMs: number | null;
      p95LatencyMs: number | null;
    }>;
    failedEvents: number;
    pendingEvents: number;
  };
  approvals: {
    pendingActions: number;
    oldestActionAt: string | null;
    pendingIncoming: number;
    oldestIncomingAt: string | null;
    oldestAgeSeconds: number | null;
  };
  cards: Record<string, number>;
}

const CARD_STATUSES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
const STATUS_ORDER = ['COMPLETED', 'PROCESSING', 'PENDING', 'PENDING_AUTHORIZATION', 'REFUNDED', 'EXPIRED', 'FAILED'];

/** Minor units as the currency writes them ("1,234.56"). */
export function major(amount: number, decimals: number): string {
  return (amount / 10 ** decimals).toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
}

/** "3 h 12 min", "2 d 4 h", "45 s". */
export function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

function Balances(props: { balances: Overview['balances'] }) {
  return (
    <section aria-labelledby="ov-balances" class="panel wide">
      <h2 id="ov-balances">Balances</h2>
      <p class="help">From the ledger: available is the balance less holds; total includes them.</p>
      <div class="scroll" tabIndex={0}>
        <table>
          <caption class="visually-hidden">
            Balances by currency: the platform's own accounts and the sum over its customers
          </caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Platform available</th>
              <th scope="col">Platform total</th>
              <th scope="col">Customers available</th>
              <th scope="col">Customers total</th>
              <th scope="col">Customer accounts</th>
            </tr>
          </thead>
          <tbody>
            {props.balances.map((b) => (
              <tr key={b.currency.code}>
                <th scope="row">{b.currency.code}</th>
                <td class="num">
                  <Money amount={b.platform.available} currency={b.currency.code} decimals={b.currency.decimals} />
                </td>
                <td class="num">
                  <Money amount={b.platform.total} currency={b.currency.code} decimals={b.currency.decimals} />
                </td>
                <td class="num">
                  <Money amount={b.customers.available} currency={b.currency.code} decimals={b.currency.decimals} />
                </td>
                <td class="num">
                  <Money amount={b.customers.total} currency={b.currency.code} decimals={b.currency.decimals} />
                </td>
                <td class="num">{b.customers.accounts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Totals of the last 7 days (today included) per direction, in one currency. */
function weekTotals(o: Overview, currency: string) {
  const since = o.volume.days[o.volume.days.length - 7] ?? o.volume.days[0];
  const totals = { SENT: { amount: 0, count: 0 }, RECEIVED: { amount: 0, count: 0 } };
  for (const r of o.volume.rows) {
    if (r.currency !== currency || r.day < since || r.status === 'FAILED' || r.status === 'EXPIRED') continue;
    totals[r.direction].amount += r.amount;
    totals[r.direction].count += r.count;
  }
  return totals;
}

function Volume(props: { o: Overview }) {
  const { o } = props;
  const currencies = [...new Set(o.volume.rows.map((r) => r.currency))].sort();
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? null);
  const decimals = o.balances.find((b) => b.currency.code === currency)?.currency.decimals ?? 2;
  const chart = (direction: 'SENT' | 'RECEIVED') => {
    const rows = o.volume.rows.filter((r) => r.currency === currency && r.direction === direction);
    const statuses = STATUS_ORDER.filter((s) => rows.some((r) => r.status === s)).concat(
      [...new Set(rows.map((r) => r.status))].filter((s) => !STATUS_ORDER.includes(s)),
    );
    const series: Series[] = statuses.map((status) => ({
      label: status,
      color: PALETTE[status] ?? '#444444',
      values: o.volume.days.map((day) => {
        const row = rows.find((r) => r.day === day && r.status === status);
        return row ? row.amount / 10 ** decimals : null;
      }),
    }));
    const total = rows.reduce((sum, r) => sum + r.amount, 0);
    const count = rows.reduce((sum, r) => sum + r.count, 0);
    const byStatus = statuses
      .map((s) => {
        const inStatus = rows.filter((r) => r.status === s);
        return `${s} ${major(
          inStatus.reduce((a, r) => a + r.amount, 0),
          decimals,
        )} (${inStatus.reduce((a, r) => a + r.count, 0)})`;
      })
      .join(', ');
    const verb = direction === 'SENT' ? 'Sent' : 'Received';
    const summary =
      count === 0
        ? `${verb} per day in ${currency}, ${o.windows.volumeFrom} to ${o.windows.to}: nothing.`
        : `${verb} per day in ${currency}, ${o.windows.volumeFrom} to ${o.windows.to}: ${major(total, decimals)} ${currency} in ${count} payments; by status: ${byStatus}.`;
    return (
      <DailyChart
        id={`volume-${direction.toLowerCase()}`}
        title={`${verb} (${currency}), by status`}
        summary={summary}
        days={o.volume.days}
        series={series}
        stacked
        format={(v) => v.toLocaleString('en-US', { maximumFractionDigits: decimals })}
      />
    );
  };
  const week = currency ? weekTotals(o, currency) : null;
  return (
    <section aria-labelledby="ov-volume" class="panel wide">
      <h2 id="ov-volume">Payment volume, last 30 days</h2>
      {currency === null ? (
        <p>No payment in the last 30 days.</p>
      ) : (
        <>
          {currencies.length > 1 && (
            <p>
              <label for="volume-currency">Currency</label>
              <select id="volume-currency" value={currency} onChange={(e) => setChosen(e.currentTarget.value)}>
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </p>
          )}
          {week && (
            <p class="week" data-testid="week-totals">
              Last 7 days: sent{' '}
              <strong>
                {major(week.SENT.amount, decimals)} {currency}
              </strong>{' '}
              in {week.SENT.count} payments, received{' '}
              <strong>
                {major(week.RECEIVED.amount, decimals)} {currency}
              </strong>{' '}
              in {week.RECEIVED.count} (not counting failed or expired).
            </p>
          )}
          <div class="charts">
            {chart('SENT')}
            {chart('RECEIVED')}
          </div>
        </>
      )}
    </section>
  );
}

function Attention(props: { o: Overview }) {
  const a = props.o.attention;
  return (
    <section aria-labelledby="ov-attention" class="panel wide">
      <h2 id="ov-attention">Failed and stuck payments</h2>
      <p>
        Failed in the last 30 days: <strong>{a.failed}</strong> ·{' '}
        <Link to="/transactions?status=FAILED">See failed payments</Link>
      </p>
      <p>
        Pending or processing with no change for over {a.stuckAfterMinutes} min: <strong>{a.stuck}</strong>
      </p>
      {a.rows.length > 0 && (
        <div class="scroll" tabIndex={0}>
          <table>
            <caption class="visually-hidden">The latest failed and stuck payments</caption>
            <thead>
              <tr>
                <th scope="col">Payment</th>
                <th scope="col">Why</th>
                <th scope="col">Customer</th>
                <th scope="col">Amount</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {a.rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link to={`/transactions/${encodeURIComponent(r.id)}`}>
                      {r.type === 'OUTGOING' ? 'Sent' : 'Received'} {major(r.amount.amount, r.amount.currency.decimals)}{' '}
                      {r.amount.currency.code}
                    </Link>
                    <code class="id">{r.id}</code>
                  </th>
                  <td>
                    <Status value={r.status} />
                    {r.failureReason ? ` · ${r.failureReason}` : r.reason === 'STUCK' ? ' · no change' : ''}
                  </td>
                  <td>
                    {r.customerId && r.customerName ? (
                      <Link to={`/customers/${encodeURIComponent(r.customerId)}`}>{r.customerName}</Link>
                    ) : (
                      'Platform'
                    )}
                  </td>
                  <td class="num">
                    <Money
                      amount={r.amount.amount}
                      currency={r.amount.currency.code}
                      decimals={r.amount.currency.decimals}
                    />
                  </td>
                  <td>
                    <Time at={r.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Webhooks(props: { o: Overview }) {
  const w = props.o.webhooks;
  const attempts = w.days.reduce((a, d) => a + d.attempts, 0);
  const succeeded = w.days.reduce((a, d) => a + d.succeeded, 0);
  const rate: Series = {
    label: 'Delivered (%)',
    color: '#1a7f37',
    values: w.days.map((d) => (d.successRate === null ? null : Math.round(d.successRate * 1000) / 10)),
  };
  const latency: Series[] = [
    { label: 'Average (ms)', color: '#0969da', values: w.days.map((d) => d.averageLatencyMs) },
    { label: '95th percentile (ms)', color: '#bc4c00', values: w.days.map((d) => d.p95LatencyMs) },
  ];
  const worst = Math.max(0, ...w.days.map((d) => d.p95LatencyMs ?? 0));
  const from = props.o.windows.webhooksFrom;
  const to = props.o.windows.to;
  return (
    <section aria-labelledby="ov-webhooks" class="panel wide">
      <h2 id="ov-webhooks">Webhook delivery, last 14 days</h2>
      <p>
        Failed events: <strong>{w.failedEvents}</strong> · Still pending: <strong>{w.pendingEvents}</strong> ·{' '}
        <Link to="/webhooks">See webhook events</Link>
      </p>
      <div class="charts">
        <DailyChart
          id="webhook-success"
          title="Delivery success rate"
          summary={
            attempts === 0
              ? `No delivery attempt from ${from} to ${to}.`
              : `From ${from} to ${to}: ${succeeded} of ${attempts} delivery attempts succeeded (${Math.round((succeeded / attempts) * 1000) / 10}%).`
          }
          days={w.days.map((d) => d.day)}
          series={[rate]}
          range={[0, 100]}
          format={(v) => `${v}%`}
        />
        <DailyChart
          id="webhook-latency"
          title="Delivery latency"
          summary={
            attempts === 0
              ? `No delivery attempt from ${from} to ${to}.`
              : `From ${from} to ${to}: the slowest day's 95th percentile was ${worst} ms.`
          }
          days={w.days.map((d) => d.day)}
          series={latency}
          format={(v) => `${v} ms`}
        />
      </div>
    </section>
  );
}

export function OverviewPage(props: { session: Session }) {
  useEffect(() => {
    document.title = 'Overview · Operator console';
  }, []);
  const loaded = useLoad(() => consoleGet<Overview>('/overview'), [], 5000);
  const o = loaded.data;
  const approvals = o ? o.approvals.pendingActions + o.approvals.pendingIncoming : 0;
  return (
    <main id="main">
      <h1>Overview</h1>
      {props.session.sandbox && <p class="notice">Sandbox routes are on: this platform is a sandbox.</p>}
      <ErrorNote error={loaded.error} />
      {!o ? (
        <Loading what="the overview" />
      ) : (
        <div class="tiles">
          <section aria-labelledby="ov-approvals" class="panel">
            <h2 id="ov-approvals">Pending approvals</h2>
            <p class="big">{approvals}</p>
            <p>
              Agent actions: {o.approvals.pendingActions} · Incoming payments: {o.approvals.pendingIncoming}
            </p>
            <p>
              Oldest waiting:{' '}
              <strong>{o.approvals.oldestAgeSeconds === null ? 'none' : age(o.approvals.oldestAgeSeconds)}</strong>
            </p>
            <Link to="/approvals">Review approvals</Link>
          </section>
          <section aria-labelledby="ov-cards" class="panel">
            <h2 id="ov-cards">Cards by status</h2>
            <table>
              <caption class="visually-hidden">Number of cards in each status</caption>
              <tbody>
                {CARD_STATUSES.map((s) => (
                  <tr key={s}>
                    <th scope="row">{s}</th>
                    <td class="num">{o.cards[s] ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <Balances balances={o.balances} />
          <Volume o={o} />
          <Attention o={o} />
          <Webhooks o={o} />
          <p class="help">
            Figures as of <Time at={o.generatedAt} /> (refreshed every few seconds; computed at most every 15 s).
          </p>
        </div>
      )}
    </main>
  );
}
