import { useEffect, useState } from 'preact/hooks';
import { get, Page, qs } from '../api';
import { ErrorNote, Facts, Link, Loading, Money, Status, Time, useLoad } from '../ui';

interface Amount {
  amount: number;
  currency: { code: string; decimals: number };
}

export interface Transaction {
  id: string;
  status: string;
  type: 'OUTGOING' | 'INCOMING';
  source: { sourceType?: string; accountId?: string; currency?: string };
  destination: { destinationType?: string; accountId?: string; currency?: string };
  customerId?: string;
  platformCustomerId?: string;
  agentId?: string;
  sentAmount?: Amount;
  receivedAmount: Amount;
  exchangeRate?: number;
  quoteId?: string;
  fees?: number;
  platformFees?: number;
  description?: string;
  failureReason?: string;
  refund?: { reference: string; status: string; reason: string };
  paymentRail?: string | null;
  settledAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The console's own read of a transaction (`/console/api/transactions/{id}/history`). */
interface History {
  timeline: Array<{ status: string; at: string; note?: string }>;
  postings: Array<{
    journalId: string;
    accountId: string | null;
    systemAccount: string | null;
    currency: string;
    amount: number;
    balanceAfter: number | null;
    reason: string;
    createdAt: string;
  }>;
}

const STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED'];

/** The amount a list row shows: what was sent (outgoing) or received (incoming). */
const amountOf = (t: Transaction) => t.sentAmount ?? t.receivedAmount;

async function history(id: string): Promise<History> {
  const res = await fetch(`/console/api/transactions/${encodeURIComponent(id)}/history`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'X-Requested-With': 'console' },
    cache: 'no-store',
  });
  const body = (await res.json()) as History & { reason?: string; code?: string };
  if (!res.ok) throw new Error(`${body.reason ?? res.statusText} (${body.code ?? res.status})`);
  return body;
}

export function TransactionsPage() {
  useEffect(() => {
    document.title = 'Transactions · Operator console';
  }, []);
  const initial = new URLSearchParams(location.search);
  const [status, setStatus] = useState(initial.get('status') ?? '');
  const [customer, setCustomer] = useState(initial.get('customerId') ?? '');
  const [filters, setFilters] = useState({ status, customerId: customer });
  const loaded = useLoad(
    () => get<Page<Transaction>>(`/transactions${qs({ ...filters, limit: 100, sortOrder: 'desc' })}`),
    [filters.status, filters.customerId],
  );
  return (
    <main id="main">
      <h1>Transactions</h1>
      <form
        role="search"
        class="inline"
        aria-label="Filter transactions"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ status, customerId: customer.trim() });
        }}
      >
        <label for="transaction-status">Status</label>
        <select id="transaction-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label for="transaction-customer">Customer</label>
        <input
          id="transaction-customer"
          type="search"
          value={customer}
          placeholder="Customer:…"
          spellcheck={false}
          onInput={(e) => setCustomer(e.currentTarget.value)}
        />
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="transactions" />
      ) : loaded.data.data.length === 0 ? (
        <p role="status">No transaction matches.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Transactions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Transaction</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Customer</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((t) => (
              <tr key={t.id}>
                <th scope="row" class="mono">
                  <Link to={`/transactions/${encodeURIComponent(t.id)}`}>{t.id}</Link>
                </th>
                <td>{t.type}</td>
                <td>
                  <Status value={t.status} />
                </td>
                <td>
                  <Money
                    amount={amountOf(t).amount}
                    currency={amountOf(t).currency.code}
                    decimals={amountOf(t).currency.decimals}
                  />
                </td>
                <td class="mono">
                  {t.customerId ? (
                    <Link to={`/customers/${encodeURIComponent(t.customerId)}`}>{t.customerId}</Link>
                  ) : (
                    'Platform'
                  )}
                </td>
                <td>
                  <Time at={t.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

export function TransactionPage(props: { id: string }) {
  useEffect(() => {
    document.title = `Transaction ${props.id} · Operator console`;
  }, [props.id]);
  const loaded = useLoad(async () => {
    const [transaction, steps] = await Promise.all([
      get<Transaction>(`/transactions/${encodeURIComponent(props.id)}`),
      history(props.id),
    ]);
    return { transaction, steps };
  }, [props.id]);
  const d = loaded.data;
  const t = d?.transaction;
  return (
    <main id="main">
      <p>
        <Link to="/transactions">← Transactions</Link>
      </p>
      <h1>Transaction {props.id}</h1>
      <ErrorNote error={loaded.error} />
      {!d || !t ? (
        <Loading what="the transaction" />
      ) : (
        <>
          <Facts
            rows={[
              ['Status', <Status value={t.status} />],
              ['Type', t.type],
              [
                'Customer',
                t.customerId ? (
                  <Link to={`/customers/${encodeURIComponent(t.customerId)}`}>{t.customerId}</Link>
                ) : (
                  'Platform'
                ),
              ],
              ['Source', <span class="mono">{t.source.accountId ?? t.source.sourceType ?? '—'}</span>],
              ['Destination', <span class="mono">{t.destination.accountId ?? '—'}</span>],
              [
                'Sent',
                t.sentAmount ? (
                  <Money
                    amount={t.sentAmount.amount}
                    currency={t.sentAmount.currency.code}
                    decimals={t.sentAmount.currency.decimals}
                  />
                ) : (
                  '—'
                ),
              ],
              [
                'Received',
                <Money
                  amount={t.receivedAmount.amount}
                  currency={t.receivedAmount.currency.code}
                  decimals={t.receivedAmount.currency.decimals}
                />,
              ],
              ['Fees', t.fees === undefined ? '—' : String(t.fees)],
              ['Exchange rate', t.exchangeRate === undefined ? '—' : String(t.exchangeRate)],
              ['Quote', <span class="mono">{t.quoteId ?? '—'}</span>],
              ['Agent', t.agentId ? <Link to={`/agents/${encodeURIComponent(t.agentId)}`}>{t.agentId}</Link> : '—'],
              ['Failure reason', t.failureReason ?? '—'],
              ['Created', <Time at={t.createdAt} />],
              ['Settled', <Time at={t.settledAt} />],
            ]}
          />
          <section aria-labelledby="timeline-title">
            <h2 id="timeline-title">Status timeline</h2>
            {d.steps.timeline.length === 0 ? (
              <p>No status recorded.</p>
            ) : (
              <ol class="timeline">
                {d.steps.timeline.map((s, i) => (
                  <li key={i}>
                    <Time at={s.at} /> <Status value={s.status} />
                    {s.note ? ` · ${s.note}` : ''}
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="postings-title">
            <h2 id="postings-title">Ledger postings</h2>
            {d.steps.postings.length === 0 ? (
              <p>No money has moved.</p>
            ) : (
              <table>
                <caption class="visually-hidden">Ledger postings of this transaction (credits positive)</caption>
                <thead>
                  <tr>
                    <th scope="col">Journal</th>
                    <th scope="col">Account</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Balance after</th>
                    <th scope="col">At</th>
                  </tr>
                </thead>
                <tbody>
                  {d.steps.postings.map((p, i) => (
                    <tr key={i}>
                      <td class="mono">{p.journalId.slice(0, 8)}…</td>
                      <th scope="row" class="mono">
                        {p.accountId ?? p.systemAccount}
                      </th>
                      <td>{p.reason}</td>
                      <td>
                        <Money amount={p.amount} currency={p.currency} />
                      </td>
                      <td>{p.balanceAfter === null ? '—' : <Money amount={p.balanceAfter} currency={p.currency} />}</td>
                      <td>
                        <Time at={p.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </main>
  );
}
