import { useEffect, useState } from 'preact/hooks';
import { can, describe, get, Page, post, Session } from '../api';
import { ErrorNote, Facts, Link, Loading, Time, useLoad } from '../ui';

interface Stablecoin {
  id: string;
  name: string;
  symbol: string;
  baseCurrency: string;
  decimals: number;
  issuanceStatus: string;
  gridOperationsStatus: string;
  networkTokenIdentifier: string;
  currency?: string;
  provider: string;
  stablecoinProviderAccountId: string;
  providerEnvironment: string;
  createdAt: string;
}

interface Operation {
  id: string;
  operationType: string;
  status: string;
  amount: string;
  source?: { type: string };
  destination?: { accountId: string; rail?: string };
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** The operator's moves from each enablement state (docs/stablecoins.md). */
const OPERATOR_MOVES: Record<string, string[]> = {
  PENDING_APPROVAL: ['ENABLING', 'DISABLED'],
  ENABLING: ['ENABLED', 'DISABLED'],
  ENABLED: ['DISABLED'],
  DISABLED: ['ENABLING'],
};

/** A coin amount in its smallest unit, shown in whole coins (exact: string arithmetic, no floats). */
function coins(amount: string, decimals: number, symbol: string): string {
  const padded = amount.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} ${symbol}`;
}

export function StablecoinsPage(_props: { session: Session }) {
  useEffect(() => {
    document.title = 'Stablecoins · Operator console';
  }, []);
  const loaded = useLoad(() => get<Page<Stablecoin>>('/stablecoins?limit=100'), []);
  return (
    <main id="main">
      <h1>Stablecoins</h1>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="stablecoins" />
      ) : loaded.data.data.length === 0 ? (
        <p>No stablecoins registered yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Stablecoins</caption>
          <thead>
            <tr>
              <th scope="col">Stablecoin</th>
              <th scope="col">Symbol</th>
              <th scope="col">Issuance</th>
              <th scope="col">Grid operations</th>
              <th scope="col">Registered</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to={`/stablecoins/${encodeURIComponent(c.id)}`}>{c.name}</Link>
                </th>
                <td>{c.symbol}</td>
                <td>{c.issuanceStatus}</td>
                <td>{c.gridOperationsStatus}</td>
                <td>
                  <Time at={c.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

export function StablecoinPage(props: { session: Session; id: string }) {
  useEffect(() => {
    document.title = `Stablecoin ${props.id} · Operator console`;
  }, [props.id]);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const id = encodeURIComponent(props.id);
  const loaded = useLoad(() => get<Stablecoin>(`/stablecoins/${id}`), [props.id, version]);
  const operations = useLoad(() => get<Page<Operation>>(`/stablecoins/${id}/operations?limit=100`), [props.id]);
  const c = loaded.data;
  return (
    <main id="main">
      <p>
        <Link to="/stablecoins">← Stablecoins</Link>
      </p>
      <h1>Stablecoin {c?.name ?? props.id}</h1>
      <ErrorNote error={loaded.error ?? error} />
      {!c ? (
        <Loading what="the stablecoin" />
      ) : (
        <>
          <Facts
            rows={[
              ['Id', <span class="mono">{c.id}</span>],
              ['Symbol', c.symbol],
              ['Base currency', c.baseCurrency],
              ['Decimals', String(c.decimals)],
              ['Issuance', c.issuanceStatus],
              ['Grid operations', c.gridOperationsStatus],
              ['Grid currency', c.currency ?? '—'],
              ['Network token', <span class="mono">{c.networkTokenIdentifier}</span>],
              ['Provider', `${c.provider} (${c.providerEnvironment})`],
              ['Provider account link', <span class="mono">{c.stablecoinProviderAccountId}</span>],
            ]}
          />
          {can(props.session, 'MANAGE') && (OPERATOR_MOVES[c.gridOperationsStatus] ?? []).length > 0 && (
            <section aria-labelledby="enablement-title">
              <h2 id="enablement-title">Enablement (operator)</h2>
              {(OPERATOR_MOVES[c.gridOperationsStatus] ?? []).map((to) => (
                <button
                  key={to}
                  type="button"
                  onClick={() => {
                    setError(null);
                    post(`/sandbox/stablecoins/${id}/grid-operations-status`, { gridOperationsStatus: to }).then(
                      () => setVersion((v) => v + 1),
                      (err: unknown) => setError(describe(err)),
                    );
                  }}
                >
                  {`Set ${to}`}
                </button>
              ))}
            </section>
          )}
          <section aria-labelledby="operations-title">
            <h2 id="operations-title">Operations</h2>
            <ErrorNote error={operations.error} />
            {!operations.data ? (
              <Loading what="operations" />
            ) : operations.data.data.length === 0 ? (
              <p>No mints or burns yet.</p>
            ) : (
              <table>
                <caption class="visually-hidden">Mints and burns, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Operation</th>
                    <th scope="col">Type</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Status</th>
                    <th scope="col">Source</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {operations.data.data.map((o) => (
                    <tr key={o.id}>
                      <th scope="row" class="mono">
                        {o.id}
                      </th>
                      <td>{o.operationType}</td>
                      <td>{coins(o.amount, c.decimals, c.symbol)}</td>
                      <td>{o.failureReason ? `${o.status} (${o.failureReason})` : o.status}</td>
                      <td>{o.source?.type ?? '—'}</td>
                      <td>
                        <Time at={o.createdAt} />
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
