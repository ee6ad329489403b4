import { useEffect, useState } from 'preact/hooks';
import { can, describe, get, Page, patch, Session } from '../api';
import { CopyableId, Named, useNames } from '../names';
import { ErrorNote, Facts, Link, Loading, Money, Time, useLoad } from '../ui';

interface Agent {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  isConnected: boolean;
  createdAt: string;
  policy: {
    permissions: string[];
    defaultExecutionMode: string;
    spendingLimits: {
      currency: string;
      perTransactionLimit: number;
      dailyLimit: number | null;
      dailyTransactionLimit?: number;
      monthlyLimit: number | null;
    };
    approvalThresholds?: { currency?: string; amount: number | null };
    accountRestrictions?: {
      allowedAccountIds: string[] | null;
      accountRules: Array<{ accountId: string; executionMode: string; perTransactionLimit: number | null }>;
    };
  };
  usage: { dailyTransactionCount: number; dailySpend: number; monthlySpend: number; dailyResetsOn?: string };
}

export function AgentsPage(_props: { session: Session }) {
  useEffect(() => {
    document.title = 'Agents · Operator console';
  }, []);
  const loaded = useLoad(() => get<Page<Agent>>('/agents?limit=100'), []);
  const names = useNames((loaded.data?.data ?? []).map((a) => a.customerId));
  return (
    <main id="main">
      <h1>Agents</h1>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="agents" />
      ) : loaded.data.data.length === 0 ? (
        <p>No agents yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Agents</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Customer</th>
              <th scope="col">Paused</th>
              <th scope="col">Connected</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((a) => (
              <tr key={a.id}>
                <th scope="row">
                  <Link to={`/agents/${encodeURIComponent(a.id)}`}>{a.name}</Link>
                </th>
                <td>
                  <Named id={a.customerId} names={names} />
                </td>
                <td>{a.isPaused ? 'Paused' : 'Running'}</td>
                <td>{a.isConnected ? 'Connected' : 'Not connected'}</td>
                <td>
                  <Time at={a.createdAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}

export function AgentPage(props: { session: Session; id: string }) {
  useEffect(() => {
    document.title = `Agent ${props.id} · Operator console`;
  }, [props.id]);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const loaded = useLoad(() => get<Agent>(`/agents/${encodeURIComponent(props.id)}`), [props.id, version]);
  const a = loaded.data;
  const limits = a?.policy.spendingLimits;
  const names = useNames([
    a?.customerId,
    ...(a?.policy.accountRestrictions?.accountRules.map((r) => r.accountId) ?? []),
  ]);
  return (
    <main id="main">
      <p>
        <Link to="/agents">← Agents</Link>
      </p>
      <h1>Agent {a?.name ?? props.id}</h1>
      <ErrorNote error={loaded.error ?? error} />
      {!a || !limits ? (
        <Loading what="the agent" />
      ) : (
        <>
          <Facts
            rows={[
              ['Id', <CopyableId id={a.id} />],
              ['Customer', <Named id={a.customerId} names={names} />],
              ['State', a.isPaused ? 'Paused' : 'Running'],
              ['Connected', a.isConnected ? 'Yes' : 'No'],
              ['Permissions', a.policy.permissions.join(', ')],
              ['Default execution mode', a.policy.defaultExecutionMode],
              [
                'Approval threshold',
                a.policy.approvalThresholds?.amount != null ? (
                  <Money amount={a.policy.approvalThresholds.amount} currency={a.policy.approvalThresholds.currency} />
                ) : (
                  '—'
                ),
              ],
            ]}
          />
          {can(props.session, 'TRANSACT') && (
            <button
              type="button"
              onClick={() => {
                setError(null);
                patch(`/agents/${encodeURIComponent(a.id)}`, { isPaused: !a.isPaused }).then(
                  () => setVersion((v) => v + 1),
                  (err: unknown) => setError(describe(err)),
                );
              }}
            >
              {a.isPaused ? 'Resume agent' : 'Pause agent'}
            </button>
          )}
          <section aria-labelledby="usage-title">
            <h2 id="usage-title">Usage against the limits</h2>
            <table>
              <caption class="visually-hidden">Usage today and this month against the policy's limits</caption>
              <thead>
                <tr>
                  <th scope="col">Limit</th>
                  <th scope="col">Used</th>
                  <th scope="col">Limit</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Per transaction</th>
                  <td>—</td>
                  <td>
                    <Money amount={limits.perTransactionLimit} currency={limits.currency} />
                  </td>
                </tr>
                <tr>
                  <th scope="row">Spent today</th>
                  <td>
                    <Money amount={a.usage.dailySpend} currency={limits.currency} />
                  </td>
                  <td>
                    <Money amount={limits.dailyLimit} currency={limits.currency} />
                  </td>
                </tr>
                <tr>
                  <th scope="row">Transactions today</th>
                  <td>{a.usage.dailyTransactionCount}</td>
                  <td>{limits.dailyTransactionLimit ?? '—'}</td>
                </tr>
                <tr>
                  <th scope="row">Spent this month</th>
                  <td>
                    <Money amount={a.usage.monthlySpend} currency={limits.currency} />
                  </td>
                  <td>
                    <Money amount={limits.monthlyLimit} currency={limits.currency} />
                  </td>
                </tr>
              </tbody>
            </table>
          </section>
          {a.policy.accountRestrictions && (
            <section aria-labelledby="rules-title">
              <h2 id="rules-title">Account rules</h2>
              <ul>
                {a.policy.accountRestrictions.accountRules.map((r) => (
                  <li key={r.accountId}>
                    <Named id={r.accountId} names={names} />: {r.executionMode}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </main>
  );
}
