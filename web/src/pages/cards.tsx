import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, can, describe, get, Page, patch, qs, Session } from '../api';
import { CopyableId, Named, useNames } from '../names';
import { ConfirmDialog, ErrorNote, Facts, Link, Loading, Money, Status, Time, useLoad } from '../ui';

export interface Card {
  id: string;
  customerId: string;
  platformCardId: string;
  status: string;
  statusReason?: string;
  brand?: string;
  form: string;
  last4?: string;
  expMonth?: number;
  expYear?: number;
  fundingSource: string;
  cardCapabilities: Record<string, boolean>;
  maxSpendPerTransaction: number | null;
  maxSpendPerDay: number | null;
  maxTransactionsPerDay: number | null;
  currency: string;
  createdAt: string;
  updatedAt: string;
}

interface HistoryEntry {
  at: string;
  actor: string;
  fromStatus: string | null;
  toStatus: string;
  substatus?: string;
  reason?: string;
  statusReason?: string;
}

interface CardTransaction {
  id: string;
  status: string;
  direction: string;
  description: string;
  authorizedAmount: { amount: number; currency: { code: string; decimals: number } };
  settledAmount?: { amount: number; currency: { code: string; decimals: number } };
  authorizedAt: string;
}

interface PlatformLimits {
  maxSpendPerTransaction: number | null;
  maxSpendPerDay: number | null;
  maxTransactionsPerDay: number | null;
}

const STATUSES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
const SUBSTATUSES = [
  'LOST',
  'COMPROMISED',
  'DAMAGED',
  'END_USER_REQUEST',
  'ISSUER_REQUEST',
  'NOT_ACTIVE',
  'SUSPICIOUS_ACTIVITY',
  'INTERNAL_REVIEW',
  'EXPIRED',
  'UNDELIVERABLE',
  'OTHER',
];

/** What the search box asks the API: a card id, a customer id, a status, the last four digits. */
async function search(term: string): Promise<{ cards: Card[]; note?: string }> {
  const q = term.trim();
  if (q.startsWith('Card:')) {
    try {
      return { cards: [await get<Card>(`/cards/${encodeURIComponent(q)}`)] };
    } catch (err) {
      if (err instanceof ApiFailure && (err.status === 404 || err.status === 400)) return { cards: [] };
      throw err;
    }
  }
  let params: Record<string, string>;
  if (q === '') params = {};
  else if (q.startsWith('Customer:')) params = { customerId: q };
  else if (STATUSES.includes(q.toUpperCase())) params = { status: q.toUpperCase() };
  else if (/^\d{4}$/.test(q)) params = { last4: q };
  else params = { platformCardId: q };
  const page = await get<Page<Card>>(`/cards${qs({ ...params, limit: 50 })}`);
  return { cards: page.data, note: page.hasMore ? `Showing 50 of ${page.totalCount}` : undefined };
}

export function CardsPage(_props: { session: Session }) {
  useEffect(() => {
    document.title = 'Cards · Operator console';
  }, []);
  const [term, setTerm] = useState('');
  const [submitted, setSubmitted] = useState('');
  const loaded = useLoad(() => search(submitted), [submitted]);
  const names = useNames((loaded.data?.cards ?? []).map((c) => c.customerId));
  return (
    <main id="main">
      <h1>Cards</h1>
      <form
        role="search"
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(term);
        }}
      >
        <label for="card-search">Search cards</label>
        <input
          id="card-search"
          type="search"
          value={term}
          aria-describedby="card-search-help"
          onInput={(e) => setTerm(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
        <p id="card-search-help" class="help">
          A card id (Card:…), the last four digits, a customer id (Customer:…), a status (ACTIVE, FROZEN…) or a platform
          card id.
        </p>
      </form>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="cards" />
      ) : loaded.data.cards.length === 0 ? (
        <p role="status">No card matches.</p>
      ) : (
        <>
          {loaded.data.note && <p>{loaded.data.note}</p>}
          <table>
            <caption class="visually-hidden">Cards</caption>
            <thead>
              <tr>
                <th scope="col">Card</th>
                <th scope="col">Last four</th>
                <th scope="col">Status</th>
                <th scope="col">Customer</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.cards.map((c) => (
                <tr key={c.id}>
                  <th scope="row" class="mono">
                    <Link to={`/cards/${encodeURIComponent(c.id)}`}>{c.id}</Link>
                  </th>
                  <td>{c.last4 ?? '—'}</td>
                  <td>
                    <Status value={c.status} />
                  </td>
                  <td>
                    <Named id={c.customerId} names={names} />
                  </td>
                  <td>
                    <Time at={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </main>
  );
}

type StatusAction = { label: 'Freeze card' | 'Unfreeze card' | 'Close card'; status: string };

function StatusDialog(props: { card: Card; action: StatusAction; onDone: () => void; onClose: () => void }) {
  const [substatus, setSubstatus] = useState('');
  const [reason, setReason] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  return (
    <ConfirmDialog
      title={`${props.action.label} ${props.card.last4 ? `•••• ${props.card.last4}` : props.card.id}`}
      confirmLabel={props.action.label}
      onClose={props.onClose}
      onConfirm={async () => {
        setFields({});
        try {
          await patch<Card>(`/cards/${encodeURIComponent(props.card.id)}`, {
            status: props.action.status,
            ...(substatus ? { substatus } : {}),
            ...(reason.trim() ? { reason: reason.trim() } : {}),
          });
          props.onDone();
        } catch (err) {
          if (err instanceof ApiFailure) setFields(err.fieldErrors);
          throw err;
        }
      }}
    >
      {props.action.status === 'CLOSED' && <p>Closing is final: a closed card cannot be used or reopened.</p>}
      <label for="status-substatus">Substatus</label>
      <select
        id="status-substatus"
        value={substatus}
        aria-invalid={fields.substatus ? true : undefined}
        aria-describedby={fields.substatus ? 'status-substatus-error' : undefined}
        onChange={(e) => setSubstatus(e.currentTarget.value)}
      >
        <option value="">(none)</option>
        {SUBSTATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <ErrorNote error={fields.substatus} id="status-substatus-error" />
      <label for="status-reason">Reason</label>
      <input
        id="status-reason"
        value={reason}
        maxLength={1000}
        aria-invalid={fields.reason ? true : undefined}
        aria-describedby={fields.reason ? 'status-reason-error' : undefined}
        onInput={(e) => setReason(e.currentTarget.value)}
      />
      <ErrorNote error={fields.reason} id="status-reason-error" />
    </ConfirmDialog>
  );
}

const LIMITS: Array<[keyof PlatformLimits, string, string]> = [
  ['maxSpendPerTransaction', 'Max spend per transaction', 'supportsSpendLimits'],
  ['maxSpendPerDay', 'Max spend per day', 'supportsSpendLimits'],
  ['maxTransactionsPerDay', 'Max transactions per day', 'supportsTransactionCountLimit'],
];

const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

function LimitsForm(props: {
  card: Card;
  platform: PlatformLimits | undefined;
  editable: boolean;
  onSaved: () => void;
}) {
  const { card } = props;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(LIMITS.map(([k]) => [k, card[k] === null ? '' : String(card[k])])),
  );
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const allowed = (capability: string) => card.cardCapabilities[capability] === true;
  const isMoney = (k: string) => k !== 'maxTransactionsPerDay';
  return (
    <section aria-labelledby="limits-title">
      <h2 id="limits-title">Limits</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setFields({});
          setError(null);
          setSaved(null);
          const body: Record<string, number | string | null> = {};
          for (const [k, , capability] of LIMITS) {
            if (!allowed(capability)) continue;
            const raw = values[k].trim();
            const current = card[k] === null ? '' : String(card[k]);
            if (raw === current) continue;
            // not a whole number: sent as typed, so the API's field error says what is wrong
            body[k] = raw === '' ? null : /^-?\d+$/.test(raw) ? Number(raw) : raw;
          }
          if (Object.keys(body).length === 0) {
            setSaved('Nothing to change.');
            return;
          }
          patch<Card>(`/cards/${encodeURIComponent(card.id)}`, body).then(
            () => {
              setSaved('Limits saved.');
              props.onSaved();
            },
            (err: unknown) => {
              if (err instanceof ApiFailure) setFields(err.fieldErrors);
              setError(describe(err));
            },
          );
        }}
      >
        <table>
          <caption class="visually-hidden">The card's own limits beside the effective ones</caption>
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col">Card's own</th>
              <th scope="col">Platform</th>
              <th scope="col">Effective (the lower applies)</th>
            </tr>
          </thead>
          <tbody>
            {LIMITS.map(([k, label, capability]) => {
              const platformValue = props.platform ? props.platform[k] : null;
              const effective = lower(card[k], platformValue);
              const show = (v: number | null) =>
                isMoney(k) ? <Money amount={v} currency={card.currency} /> : <span>{v ?? '—'}</span>;
              const inputId = `limit-${k}`;
              return (
                <tr key={k}>
                  <th scope="row">
                    <label for={inputId}>{label}</label>
                  </th>
                  <td>
                    {props.editable && allowed(capability) ? (
                      <>
                        <input
                          id={inputId}
                          inputMode="numeric"
                          value={values[k]}
                          aria-describedby={`${inputId}-help${fields[k] ? ` ${inputId}-error` : ''}`}
                          aria-invalid={fields[k] ? true : undefined}
                          onInput={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
                        />
                        <span id={`${inputId}-help`} class="help">
                          {isMoney(k) ? `minor units of ${card.currency}; ` : ''}empty clears it
                        </span>
                        <ErrorNote error={fields[k]} id={`${inputId}-error`} />
                      </>
                    ) : (
                      <span id={inputId}>{show(card[k])}</span>
                    )}
                  </td>
                  <td>{show(platformValue)}</td>
                  <td>{show(effective)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {props.editable && LIMITS.some(([, , c]) => allowed(c)) && (
          <button type="submit" class="primary">
            Save limits
          </button>
        )}
        {props.editable && !LIMITS.some(([, , c]) => allowed(c)) && <p>This card's program does not support limits.</p>}
        <ErrorNote error={error} />
        {saved && <p role="status">{saved}</p>}
      </form>
    </section>
  );
}

export function CardPage(props: { session: Session; id: string }) {
  useEffect(() => {
    document.title = `Card ${props.id} · Operator console`;
  }, [props.id]);
  const [action, setAction] = useState<StatusAction | null>(null);
  const [version, setVersion] = useState(0);
  const loaded = useLoad(async () => {
    const path = `/cards/${encodeURIComponent(props.id)}`;
    const [card, history, transactions, config] = await Promise.all([
      get<Card>(path),
      get<{ data: HistoryEntry[] }>(`${path}/status-history`),
      get<Page<CardTransaction>>(`${path}/transactions?limit=20`),
      get<{ cardConfigs?: PlatformLimits }>('/config').catch(() => ({ cardConfigs: undefined })),
    ]);
    return { card, history: history.data, transactions: transactions.data, platform: config.cardConfigs };
  }, [props.id, version]);
  const mayAct = can(props.session, 'TRANSACT');
  const d = loaded.data;
  const names = useNames([d?.card.customerId, d?.card.fundingSource]);
  const actions: StatusAction[] = !d
    ? []
    : [
        ...(d.card.status === 'ACTIVE' ? [{ label: 'Freeze card' as const, status: 'FROZEN' }] : []),
        ...(d.card.status === 'FROZEN' ? [{ label: 'Unfreeze card' as const, status: 'ACTIVE' }] : []),
        ...(d.card.status !== 'CLOSED' ? [{ label: 'Close card' as const, status: 'CLOSED' }] : []),
      ];
  return (
    <main id="main">
      <p>
        <Link to="/cards">← Cards</Link>
      </p>
      <h1>Card {d?.card.last4 ? `•••• ${d.card.last4}` : props.id}</h1>
      <ErrorNote error={loaded.error} />
      {!d ? (
        <Loading what="the card" />
      ) : (
        <>
          <Facts
            rows={[
              ['Id', <CopyableId id={d.card.id} />],
              ['Status', <Status value={d.card.status} />],
              ['Status reason', d.card.statusReason ?? '—'],
              ['Customer', <Named id={d.card.customerId} names={names} />],
              ['Funding source', <Named id={d.card.fundingSource} names={names} />],
              ['Brand and form', `${d.card.brand ?? '—'} ${d.card.form}`],
              ['Expires', d.card.expMonth ? `${d.card.expMonth}/${d.card.expYear}` : '—'],
              ['Currency', d.card.currency],
              ['Platform card id', <span class="mono">{d.card.platformCardId}</span>],
            ]}
          />
          {mayAct && actions.length > 0 && (
            <div class="buttons" role="group" aria-label="Card actions">
              {actions.map((a) => (
                <button type="button" key={a.label} onClick={() => setAction(a)}>
                  {a.label}
                </button>
              ))}
            </div>
          )}
          <LimitsForm
            key={`${d.card.updatedAt}`}
            card={d.card}
            platform={d.platform}
            editable={mayAct && d.card.status !== 'CLOSED'}
            onSaved={() => setVersion((v) => v + 1)}
          />
          <section aria-labelledby="caps-title">
            <h2 id="caps-title">Capabilities</h2>
            <ul>
              {Object.entries(d.card.cardCapabilities).map(([k, v]) => (
                <li key={k}>
                  {k}: {v ? 'yes' : 'no'}
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="history-title">
            <h2 id="history-title">Status history</h2>
            <table>
              <caption class="visually-hidden">Status changes, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Change</th>
                  <th scope="col">Substatus</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {d.history.map((h, i) => (
                  <tr key={i}>
                    <td>
                      <Time at={h.at} />
                    </td>
                    <td class="mono">{h.actor}</td>
                    <td>
                      {h.fromStatus ?? 'issued'} → {h.toStatus}
                    </td>
                    <td>{h.substatus ?? '—'}</td>
                    <td>{h.reason ?? h.statusReason ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="txn-title">
            <h2 id="txn-title">Recent transactions</h2>
            {d.transactions.length === 0 ? (
              <p>No card transactions yet.</p>
            ) : (
              <table>
                <caption class="visually-hidden">The card's latest transactions</caption>
                <thead>
                  <tr>
                    <th scope="col">Authorized</th>
                    <th scope="col">Description</th>
                    <th scope="col">Status</th>
                    <th scope="col">Direction</th>
                    <th scope="col">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {d.transactions.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <Time at={t.authorizedAt} />
                      </td>
                      <td>{t.description}</td>
                      <td>
                        <Status value={t.status} />
                      </td>
                      <td>{t.direction}</td>
                      <td>
                        <Money
                          amount={(t.settledAmount ?? t.authorizedAmount).amount}
                          currency={t.authorizedAmount.currency.code}
                          decimals={t.authorizedAmount.currency.decimals}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          {action && (
            <StatusDialog
              card={d.card}
              action={action}
              onClose={() => setAction(null)}
              onDone={() => setVersion((v) => v + 1)}
            />
          )}
        </>
      )}
    </main>
  );
}
