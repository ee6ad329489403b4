import { useState } from 'preact/hooks';
import { ApiFailure, can, Session } from '../api';
import { ConfirmDialog, ErrorNote, Link, Loading, Money, Time, useLoad } from '../ui';

/** The console's own routes for this page (outside the API's version prefix). */
const ATTENTION = '/console/api/attention';

interface UnresolvedSettlement {
  transactionId: string;
  sentAmount: { amount: number; currency: string };
  receivingAmount: { amount: number; currency: string };
  counterparty: { umaAddress: string; domain: string };
  settlingSince: string;
  ageSeconds: number;
  overdue: boolean;
  inquiryAttempts: number;
  nextInquiryAt: string | null;
  lastError: string | null;
}

interface OverdueRailTransaction {
  transactionId: string;
  amount: { amount: number; currency: string };
  paymentRail: string | null;
  destination: string | null;
  processingSince: string;
  ageSeconds: number;
  overdueSeconds: number;
}

interface Attention {
  settlements: UnresolvedSettlement[];
  railTransactions: OverdueRailTransaction[];
}

async function call<T>(session: Session, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'X-Requested-With': 'console' };
  if (method !== 'GET') headers['X-CSRF-Token'] = session.csrfToken;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${ATTENTION}${path}`, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const err = (parsed ?? {}) as { code?: string; reason?: string; details?: Record<string, unknown> };
    throw new ApiFailure(res.status, err.code ?? 'ERROR', err.reason ?? res.statusText, err.details);
  }
  return parsed as T;
}

/** "3 h 12 min", "2 d 4 h", "45 s". */
function age(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

const link = (id: string) => <Link to={`/transactions/${encodeURIComponent(id)}`}>{id}</Link>;

/**
 * Needs attention: money that has not arrived where it should by now. UMA payments to other
 * deployments still unresolved (the receiver has not answered the settlement inquiry) and rail
 * transactions past their rail's expected settlement time, with their age, amount, counterparty
 * and last error. A MANAGE token may retry a settlement now or resolve it (refund or complete,
 * with a reason that goes on the payment's timeline and in the audit trail).
 */
export function AttentionPage(props: { session: Session }) {
  const { session } = props;
  const loaded = useLoad(() => call<Attention>(session, 'GET', ''), [], 15_000);
  const [resolving, setResolving] = useState<UnresolvedSettlement | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const manage = can(session, 'MANAGE');
  const retry = (s: UnresolvedSettlement) => {
    setError(null);
    call(session, 'POST', `/settlements/${encodeURIComponent(s.transactionId)}/retry`).then(
      () => {
        setNotice(`Asking the receiver about ${s.transactionId} again now.`);
        loaded.reload();
      },
      (e: unknown) => setError(e instanceof ApiFailure ? `${e.reason} (${e.code})` : String(e)),
    );
  };
  const data = loaded.data;
  return (
    <main id="main">
      <h1>Needs attention</h1>
      <p>
        Payments that have not arrived where they should by now. A settlement resolves itself as soon as the receiving
        deployment answers; resolve one by hand only when the counterparty confirmed it another way.
      </p>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorNote error={loaded.error ?? error} />
      {!data ? (
        <Loading what="what needs attention" />
      ) : (
        <>
          <section aria-labelledby="settlements-title">
            <h2 id="settlements-title">Unresolved settlements ({data.settlements.length})</h2>
            {data.settlements.length === 0 ? (
              <p>None: every payment to another deployment is resolved.</p>
            ) : (
              <table>
                <caption class="visually-hidden">UMA payments not yet resolved, oldest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Transaction</th>
                    <th scope="col">Age</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Counterparty</th>
                    <th scope="col">Last error</th>
                    <th scope="col">Next inquiry</th>
                    {manage && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.settlements.map((s) => (
                    <tr key={s.transactionId} data-transaction={s.transactionId}>
                      <th scope="row" class="mono">
                        {link(s.transactionId)}
                      </th>
                      <td>
                        {age(s.ageSeconds)}
                        {s.overdue ? ' (overdue)' : ''}
                      </td>
                      <td>
                        <Money amount={s.sentAmount.amount} currency={s.sentAmount.currency} />
                        {' → '}
                        <Money amount={s.receivingAmount.amount} currency={s.receivingAmount.currency} />
                      </td>
                      <td class="mono">{s.counterparty.umaAddress}</td>
                      <td>{s.lastError ?? '—'}</td>
                      <td>
                        <Time at={s.nextInquiryAt} /> ({s.inquiryAttempts} asked)
                      </td>
                      {manage && (
                        <td>
                          <button type="button" onClick={() => retry(s)}>
                            Retry now
                          </button>{' '}
                          <button type="button" onClick={() => setResolving(s)}>
                            Resolve
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="rail-title">
            <h2 id="rail-title">Rail transactions past their expected time ({data.railTransactions.length})</h2>
            {data.railTransactions.length === 0 ? (
              <p>None.</p>
            ) : (
              <table>
                <caption class="visually-hidden">Rail transactions still processing past their expected time</caption>
                <thead>
                  <tr>
                    <th scope="col">Transaction</th>
                    <th scope="col">Processing for</th>
                    <th scope="col">Overdue by</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Rail</th>
                    <th scope="col">Destination</th>
                  </tr>
                </thead>
                <tbody>
                  {data.railTransactions.map((r) => (
                    <tr key={r.transactionId}>
                      <th scope="row" class="mono">
                        {link(r.transactionId)}
                      </th>
                      <td>{age(r.ageSeconds)}</td>
                      <td>{age(r.overdueSeconds)}</td>
                      <td>
                        <Money amount={r.amount.amount} currency={r.amount.currency} />
                      </td>
                      <td>{r.paymentRail ?? '—'}</td>
                      <td class="mono">{r.destination ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
      {resolving && (
        <ResolveDialog
          session={session}
          settlement={resolving}
          onDone={(status) => {
            setNotice(`${resolving.transactionId} is ${status}.`);
            loaded.reload();
          }}
          onClose={() => setResolving(null)}
        />
      )}
    </main>
  );
}

function ResolveDialog(props: {
  session: Session;
  settlement: UnresolvedSettlement;
  onDone: (status: string) => void;
  onClose: () => void;
}) {
  const [action, setAction] = useState<'REFUND' | 'COMPLETE'>('REFUND');
  const [reason, setReason] = useState('');
  const s = props.settlement;
  return (
    <ConfirmDialog
      title={`Resolve ${s.transactionId}`}
      confirmLabel="Resolve payment"
      onClose={props.onClose}
      onConfirm={async () => {
        const done = await call<{ status: string }>(
          props.session,
          'POST',
          `/settlements/${encodeURIComponent(s.transactionId)}/resolve`,
          { action, reason },
        );
        props.onDone(done.status);
      }}
    >
      <p>
        <Money amount={s.sentAmount.amount} currency={s.sentAmount.currency} /> to{' '}
        <span class="mono">{s.counterparty.umaAddress}</span>, unresolved for {age(s.ageSeconds)}.
      </p>
      <fieldset>
        <legend>Outcome</legend>
        <label>
          <input type="radio" name="action" checked={action === 'REFUND'} onChange={() => setAction('REFUND')} /> Refund
          the sender (the receiver did not credit it)
        </label>
        <label>
          <input type="radio" name="action" checked={action === 'COMPLETE'} onChange={() => setAction('COMPLETE')} />{' '}
          Complete it (the receiver credited it)
        </label>
      </fieldset>
      <label for="resolve-reason">Reason (on the payment's timeline)</label>
      <textarea
        id="resolve-reason"
        required
        minLength={3}
        maxLength={500}
        value={reason}
        onInput={(e) => setReason(e.currentTarget.value)}
      />
    </ConfirmDialog>
  );
}
