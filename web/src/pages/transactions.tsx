import { useEffect, useState } from 'preact/hooks';
import { CONSOLE_API, consoleGet, get, Page, qs } from '../api';
import { CopyableId, Named, useNames } from '../names';
import type { Overview } from './overview';
import { ErrorNote, Facts, Link, Loading, Money, Status, Time, useLoad } from '../ui';

interface Amount {
  amount: number;
  currency: { code: string; decimals: number };
}

export interface Transaction {
  id: string;
  status: string;
  type: 'OUTGOING' | 'INCOMING';
  source: { sourceType?: string; accountId?: string; currency?: string; umaAddress?: string };
  destination: { destinationType?: string; accountId?: string; currency?: string; umaAddress?: string };
  senderUmaAddress?: string;
  receiverUmaAddress?: string;
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

/** Who the payment went to or came from: an account (by name, later) or a UMA address. */
const counterpartyOf = (t: Transaction) =>
  t.type === 'OUTGOING'
    ? (t.destination.accountId ?? t.destination.umaAddress)
    : (t.source.accountId ?? t.source.umaAddress ?? t.senderUmaAddress);

async function history(id: string): Promise<History> {
  return consoleGet<History>(`/transactions/${encodeURIComponent(id)}/history`);
}

/** A row of `GET /console/api/transactions`: the reference's members plus the customer's name. */
interface SearchRow extends Transaction {
  customerId: string;
  customerName: string | null;
}

interface Filters {
  status: string;
  type: string;
  customerName: string;
  currency: string;
  minAmount: string;
  maxAmount: string;
  from: string;
  to: string;
}

const EMPTY: Filters = {
  status: '',
  type: '',
  customerName: '',
  currency: '',
  minAmount: '',
  maxAmount: '',
  from: '',
  to: '',
};

/** "10.50" in a currency with `decimals` → minor units ("1050"); anything else is passed on for the API to refuse. */
export function toMinor(value: string, decimals: number): string {
  const v = value.trim().replace(/,/g, '');
  const m = /^(\d+)(?:\.(\d*))?$/.exec(v);
  if (!m || (m[2] ?? '').length > decimals) return v;
  return String(BigInt(m[1]) * 10n ** BigInt(decimals) + BigInt((m[2] ?? '').padEnd(decimals, '0') || '0'));
}

/** The search's query string (the list's and the CSV's): UTC days, amounts in the currency's units. */
function searchParams(f: Filters, decimals: number, customerId: string) {
  return {
    status: f.status,
    type: f.type,
    customerId,
    customerName: f.customerName.trim(),
    currency: f.currency,
    minAmount: f.minAmount ? toMinor(f.minAmount, decimals) : undefined,
    maxAmount: f.maxAmount ? toMinor(f.maxAmount, decimals) : undefined,
    createdAfter: f.from ? `${f.from}T00:00:00.000Z` : undefined,
    createdBefore: f.to ? `${f.to}T23:59:59.999Z` : undefined,
  };
}

function FieldNote(props: { errors: Record<string, string>; field: string; id: string }) {
  const message = props.errors[props.field];
  return message ? (
    <span class="error field-error" id={props.id}>
      {message}
    </span>
  ) : null;
}

export function TransactionsPage() {
  useEffect(() => {
    document.title = 'Transactions · Operator console';
  }, []);
  const initial = new URLSearchParams(location.search);
  const customerId = initial.get('customerId') ?? '';
  const [form, setForm] = useState<Filters>({ ...EMPTY, status: initial.get('status') ?? '' });
  const [filters, setFilters] = useState<Filters>(form);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  // The platform's currencies and their decimals (every currency it holds an account in).
  const overview = useLoad(() => consoleGet<Overview>('/overview'), []);
  const currencies = (overview.data?.balances ?? []).map((b) => b.currency);
  const codes = currencies.map((c) => c.code);
  const decimalsOf = (code: string) => currencies.find((c) => c.code === code)?.decimals ?? 2;
  const params = searchParams(filters, decimalsOf(filters.currency), customerId);
  const loaded = useLoad(
    () => consoleGet<Page<SearchRow>>(`/transactions${qs({ ...params, cursor, limit: 50 })}`),
    [JSON.stringify(params), cursor],
  );
  const rows = loaded.data?.data ?? [];
  const names = useNames(rows.flatMap((t) => [counterpartyOf(t)]));
  const errors = loaded.failure?.fieldErrors ?? {};
  const set = (key: keyof Filters) => (e: { currentTarget: { value: string } }) =>
    setForm({ ...form, [key]: e.currentTarget.value });
  const described = (field: string) => (errors[field] ? `error-${field}` : undefined);
  return (
    <main id="main">
      <h1>Transactions</h1>
      {customerId && (
        <p class="notice">
          Only the transactions of <span class="mono">{customerId}</span>. <Link to="/transactions">Show all</Link>
        </p>
      )}
      <form
        role="search"
        class="inline search"
        aria-label="Search transactions"
        onSubmit={(e) => {
          e.preventDefault();
          setCursor(undefined);
          setFilters({ ...form });
        }}
      >
        <div>
          <label for="transaction-status">Status</label>
          <select id="transaction-status" value={form.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="transaction-type">Direction</label>
          <select id="transaction-type" value={form.type} onChange={set('type')}>
            <option value="">Both</option>
            <option value="OUTGOING">Sent</option>
            <option value="INCOMING">Received</option>
          </select>
        </div>
        <div>
          <label for="transaction-customer">Customer name</label>
          <input
            id="transaction-customer"
            type="search"
            value={form.customerName}
            spellcheck={false}
            aria-describedby={described('customerName')}
            onInput={set('customerName')}
          />
          <FieldNote errors={errors} field="customerName" id="error-customerName" />
        </div>
        <div>
          <label for="transaction-currency">Currency</label>
          <select id="transaction-currency" value={form.currency} onChange={set('currency')}>
            <option value="">Any</option>
            {codes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="transaction-min">Amount from</label>
          <input
            id="transaction-min"
            inputMode="decimal"
            value={form.minAmount}
            placeholder="0.00"
            aria-describedby={described('minAmount')}
            onInput={set('minAmount')}
          />
          <FieldNote errors={errors} field="minAmount" id="error-minAmount" />
        </div>
        <div>
          <label for="transaction-max">Amount to</label>
          <input
            id="transaction-max"
            inputMode="decimal"
            value={form.maxAmount}
            placeholder="0.00"
            aria-describedby={described('maxAmount')}
            onInput={set('maxAmount')}
          />
          <FieldNote errors={errors} field="maxAmount" id="error-maxAmount" />
        </div>
        <div>
          <label for="transaction-from">Created from</label>
          <input
            id="transaction-from"
            type="date"
            value={form.from}
            aria-describedby={described('createdAfter')}
            onInput={set('from')}
          />
          <FieldNote errors={errors} field="createdAfter" id="error-createdAfter" />
        </div>
        <div>
          <label for="transaction-to">Created to</label>
          <input id="transaction-to" type="date" value={form.to} onInput={set('to')} />
        </div>
        <div class="buttons">
          <button type="submit" class="primary">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setForm(EMPTY);
              setFilters(EMPTY);
              setCursor(undefined);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <p class="help">
        Days are UTC; amounts are in the chosen currency's units (the sent amount of an outgoing payment, the received
        amount of an incoming one).
      </p>
      <p>
        <a class="download" href={`${CONSOLE_API}/transactions/csv${qs(params)}`} download>
          Download CSV
        </a>{' '}
        <span class="help-inline">every transaction that matches, with the reference's field names as columns</span>
      </p>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        !loaded.error && <Loading what="transactions" />
      ) : rows.length === 0 ? (
        <p role="status">No transaction matches.</p>
      ) : (
        <>
          <p role="status">
            {loaded.data.totalCount} {loaded.data.totalCount === 1 ? 'transaction matches' : 'transactions match'}.
          </p>
          <div class="scroll" tabIndex={0}>
            <table>
              <caption class="visually-hidden">Transactions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Transaction</th>
                  <th scope="col">Direction</th>
                  <th scope="col">Status</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Counterparty</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr key={t.id}>
                    <th scope="row" class="mono">
                      <Link to={`/transactions/${encodeURIComponent(t.id)}`}>{t.id}</Link>
                    </th>
                    <td>{t.type === 'OUTGOING' ? 'Sent' : 'Received'}</td>
                    <td>
                      <Status value={t.status} />
                    </td>
                    <td class="num">
                      <Money
                        amount={amountOf(t).amount}
                        currency={amountOf(t).currency.code}
                        decimals={amountOf(t).currency.decimals}
                      />
                    </td>
                    <td>
                      {t.customerId.startsWith('Customer:') ? (
                        <span class="named">
                          <Link to={`/customers/${encodeURIComponent(t.customerId)}`}>
                            {t.customerName ?? t.customerId}
                          </Link>
                          <CopyableId id={t.customerId} />
                        </span>
                      ) : (
                        'Platform'
                      )}
                    </td>
                    <td>
                      {counterpartyOf(t)?.includes(':') ? (
                        <Named id={counterpartyOf(t)} names={names} />
                      ) : (
                        (counterpartyOf(t) ?? '—')
                      )}
                    </td>
                    <td>
                      <Time at={t.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {(cursor || loaded.data.hasMore) && (
            <div class="buttons">
              {cursor && (
                <button type="button" onClick={() => setCursor(undefined)}>
                  First page
                </button>
              )}
              {loaded.data.hasMore && (
                <button type="button" onClick={() => setCursor(loaded.data?.nextCursor)}>
                  Next page
                </button>
              )}
            </div>
          )}
        </>
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
  const decimals = (code: string) =>
    [t?.sentAmount?.currency, t?.receivedAmount.currency].find((c) => c?.code === code)?.decimals ?? 2;
  const names = useNames([
    t?.customerId,
    t?.source.accountId,
    t?.destination.accountId,
    t?.agentId,
    ...(d?.steps.postings.map((p) => p.accountId) ?? []),
  ]);
  const endpoint = (e: Transaction['source'], uma: string | undefined) =>
    e.accountId ? (
      <Named id={e.accountId} names={names} />
    ) : e.umaAddress || uma ? (
      <span>
        UMA <strong>{e.umaAddress ?? uma}</strong>
      </span>
    ) : (
      (e.sourceType ?? '—')
    );
  return (
    <main id="main">
      <p>
        <Link to="/transactions">← Transactions</Link>
      </p>
      <h1>
        {t ? (
          <>
            {t.type === 'OUTGOING' ? 'Sent' : 'Received'}{' '}
            <Money
              amount={amountOf(t).amount}
              currency={amountOf(t).currency.code}
              decimals={amountOf(t).currency.decimals}
            />
            {names.get(t.customerId ?? '') ? ` · ${names.get(t.customerId ?? '')!.label}` : ''}
          </>
        ) : (
          'Transaction'
        )}
        <span class="visually-hidden"> (Transaction {props.id})</span>
      </h1>
      <ErrorNote error={loaded.error} />
      {!d || !t ? (
        <Loading what="the transaction" />
      ) : (
        <>
          <Facts
            rows={[
              ['Status', <Status value={t.status} />],
              ['Type', t.type],
              ['Id', <CopyableId id={t.id} />],
              [
                'Customer',
                t.customerId?.startsWith('Customer:') ? <Named id={t.customerId} names={names} /> : 'Platform',
              ],
              ['Source', endpoint(t.source, t.senderUmaAddress)],
              ['Destination', endpoint(t.destination, t.type === 'INCOMING' ? t.receiverUmaAddress : undefined)],
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
              [
                'Fees',
                t.fees === undefined ? (
                  '—'
                ) : (
                  <Money
                    amount={t.fees}
                    currency={amountOf(t).currency.code}
                    decimals={amountOf(t).currency.decimals}
                  />
                ),
              ],
              ['Exchange rate', t.exchangeRate === undefined ? '—' : String(t.exchangeRate)],
              ['Quote', t.quoteId ? <CopyableId id={t.quoteId} /> : '—'],
              ['Agent', t.agentId ? <Named id={t.agentId} names={names} /> : '—'],
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
                      <th scope="row">
                        {p.accountId ? (
                          <Named id={p.accountId} names={names} />
                        ) : (
                          <span class="mono">{p.systemAccount}</span>
                        )}
                      </th>
                      <td>{p.reason}</td>
                      <td>
                        <Money amount={p.amount} currency={p.currency} decimals={decimals(p.currency)} />
                      </td>
                      <td>
                        {p.balanceAfter === null ? (
                          '—'
                        ) : (
                          <Money amount={p.balanceAfter} currency={p.currency} decimals={decimals(p.currency)} />
                        )}
                      </td>
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
