import { useEffect, useState } from 'preact/hooks';
import { can, get, Page, post, Session } from '../api';
import { Named, useNames } from '../names';
import { ConfirmDialog, ErrorNote, Loading, Money, Time, useLoad } from '../ui';

export interface AgentAction {
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: string;
  type: string;
  rejectionReason?: string;
  createdAt: string;
  quote: {
    id: string;
    totalSendingAmount: number;
    totalReceivingAmount: number;
    sendingCurrency: { code: string; decimals: number };
    receivingCurrency: { code: string; decimals: number };
    source: { accountId: string };
    destination: { accountId: string; paymentRail?: string };
  };
}

interface Agent {
  id: string;
  name: string;
  policy: {
    defaultExecutionMode: string;
    approvalThresholds?: { currency?: string; amount: number | null };
    accountRestrictions?: { accountRules: Array<{ accountId: string; executionMode: string }> };
  };
}

type Decision = { action: AgentAction; kind: 'Approve' | 'Reject' };

/** An incoming payment as GET /transactions answers it (the reference's IncomingTransaction). */
export interface IncomingPayment {
  id: string;
  status: string;
  customerId: string;
  platformCustomerId: string;
  createdAt: string;
  senderUmaAddress?: string;
  receiverUmaAddress?: string;
  counterpartyInformation?: Record<string, unknown>;
  receivedAmount: { amount: number; currency: { code: string; decimals: number } };
  destination: { accountId?: string };
}

type PaymentDecision = { payment: IncomingPayment; kind: 'Approve' | 'Reject' };

/** The payer data the sender sent, in one line. */
function payer(payment: IncomingPayment): string {
  const info = payment.counterpartyInformation ?? {};
  const parts = Object.entries(info).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join('; ') : '—';
}

/**
 * Incoming payments waiting for the platform's decision (its webhook answered 202, or no endpoint
 * is set), oldest first: approve or reject within the approval window; refreshed every 2 s.
 */
function IncomingPayments(props: { mayAct: boolean }) {
  const [decision, setDecision] = useState<PaymentDecision | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const loaded = useLoad(
    async () =>
      (await get<Page<IncomingPayment>>('/transactions?type=INCOMING&status=PENDING&sortOrder=asc&limit=100')).data,
    [],
    2000,
  );
  const payments = loaded.data;
  const names = useNames((payments ?? []).flatMap((t) => [t.customerId, t.destination.accountId]));
  return (
    <section aria-labelledby="incoming-payments">
      <h2 id="incoming-payments">Incoming payments</h2>
      <p>Payments to your customers waiting for your decision; undecided ones fail when the approval window closes.</p>
      <ErrorNote error={loaded.error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {!payments ? (
        <Loading what="incoming payments" />
      ) : payments.length === 0 ? (
        <p>No incoming payment is waiting for a decision.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Incoming payments awaiting a decision</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Transaction</th>
              <th scope="col">From</th>
              <th scope="col">Customer</th>
              <th scope="col">Amount</th>
              <th scope="col">Payer data</th>
              {props.mayAct && <th scope="col">Decision</th>}
            </tr>
          </thead>
          <tbody>
            {payments.map((t) => (
              <tr key={t.id}>
                <td>
                  <Time at={t.createdAt} />
                </td>
                <th scope="row" class="mono">
                  {t.id}
                </th>
                <td>{t.senderUmaAddress ? <strong>{t.senderUmaAddress}</strong> : '—'}</td>
                <td>
                  <Named id={t.customerId} names={names} />
                </td>
                <td>
                  <Money
                    amount={t.receivedAmount.amount}
                    currency={t.receivedAmount.currency.code}
                    decimals={t.receivedAmount.currency.decimals}
                  />
                </td>
                <td>{payer(t)}</td>
                {props.mayAct && (
                  <td class="buttons">
                    <button type="button" onClick={() => setDecision({ payment: t, kind: 'Approve' })}>
                      Approve
                    </button>
                    <button
                      type="button"
                      onClick={() => {
                        setReason('');
                        setDecision({ payment: t, kind: 'Reject' });
                      }}
                    >
                      Reject
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {decision && (
        <ConfirmDialog
          title={`${decision.kind} ${decision.payment.id}?`}
          confirmLabel={decision.kind}
          onClose={() => setDecision(null)}
          onConfirm={async () => {
            const { payment, kind } = decision;
            const base = `/transactions/${payment.id}`;
            const result =
              kind === 'Approve'
                ? await post<IncomingPayment>(`${base}/approve`, {})
                : await post<IncomingPayment>(`${base}/reject`, reason.trim() ? { reason: reason.trim() } : {});
            setNotice(`${payment.id}: ${result.status}`);
            loaded.reload();
          }}
        >
          <p>
            <Money
              amount={decision.payment.receivedAmount.amount}
              currency={decision.payment.receivedAmount.currency.code}
              decimals={decision.payment.receivedAmount.currency.decimals}
            />{' '}
            from {decision.payment.senderUmaAddress ?? 'the sender'}
          </p>
          {decision.kind === 'Reject' && (
            <>
              <label for="reject-payment-reason">Reason</label>
              <input
                id="reject-payment-reason"
                value={reason}
                maxLength={1000}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
            </>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Why the action waits, from its agent's policy as the API returns it (the API decided; this only shows the policy). */
function why(action: AgentAction, agent: Agent | undefined): string {
  if (!agent) return '—';
  const parts: string[] = [];
  const rule = agent.policy.accountRestrictions?.accountRules.find(
    (r) => r.accountId === action.quote.source.accountId,
  );
  if (rule) parts.push(`account rule: ${rule.executionMode}`);
  const threshold = agent.policy.approvalThresholds;
  if (threshold?.amount !== null && threshold?.amount !== undefined)
    parts.push(`approval threshold ${threshold.amount} ${threshold.currency ?? ''} (minor units)`.trim());
  parts.push(`execution mode: ${agent.policy.defaultExecutionMode}`);
  return parts.join('; ');
}

/**
 * Pending agent actions, oldest first; refreshed every 4 s (new ones appear, decided ones leave);
 * beside them, incoming payments awaiting the platform's decision.
 */
export function ApprovalsPage(props: { session: Session }) {
  useEffect(() => {
    document.title = 'Approvals · Operator console';
  }, []);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const loaded = useLoad(
    async () => {
      const page = await get<Page<AgentAction>>('/agents/approvals?limit=100');
      // oldest first (ids are UUIDv7: time-ordered, so they break ties)
      const actions = [...page.data].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      const ids = [...new Set(actions.map((a) => a.agentId))];
      const agents = await Promise.all(ids.map((id) => get<Agent>(`/agents/${id}`).catch(() => undefined)));
      const byId = new Map(agents.filter((a): a is Agent => !!a).map((a) => [a.id, a]));
      return { actions, agents: byId };
    },
    [],
    4000,
  );
  const mayAct = can(props.session, 'TRANSACT');
  const data = loaded.data;
  const names = useNames(
    (data?.actions ?? []).flatMap((a) => [
      a.customerId,
      a.agentId,
      a.quote.destination.accountId,
      a.quote.source.accountId,
    ]),
  );
  return (
    <main id="main">
      <h1>Approvals</h1>
      <p>
        Agent actions and incoming payments waiting for a decision, oldest first. The lists refresh every few seconds.
      </p>
      <h2>Agent actions</h2>
      <ErrorNote error={loaded.error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {!data ? (
        <Loading what="pending approvals" />
      ) : data.actions.length === 0 ? (
        <p>No agent action is waiting for approval.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Pending agent actions</caption>
          <thead>
            <tr>
              <th scope="col">Requested</th>
              <th scope="col">Action</th>
              <th scope="col">Agent</th>
              <th scope="col">Customer</th>
              <th scope="col">Amount</th>
              <th scope="col">Destination</th>
              <th scope="col">Why it needs approval</th>
              {mayAct && <th scope="col">Decision</th>}
            </tr>
          </thead>
          <tbody>
            {data.actions.map((a) => {
              const agent = data.agents.get(a.agentId);
              return (
                <tr key={a.id}>
                  <td>
                    <Time at={a.createdAt} />
                  </td>
                  <th scope="row" class="mono">
                    {a.id}
                  </th>
                  <td>
                    <Named id={a.agentId} names={names} />
                  </td>
                  <td>
                    <Named id={a.customerId} names={names} />
                  </td>
                  <td>
                    <Money
                      amount={a.quote.totalSendingAmount}
                      currency={a.quote.sendingCurrency.code}
                      decimals={a.quote.sendingCurrency.decimals}
                    />
                  </td>
                  <td>
                    <Named id={a.quote.destination.accountId} names={names} />
                    {a.quote.destination.paymentRail ? ` (${a.quote.destination.paymentRail})` : ''}
                  </td>
                  <td>{why(a, agent)}</td>
                  {mayAct && (
                    <td class="buttons">
                      <button type="button" onClick={() => setDecision({ action: a, kind: 'Approve' })}>
                        Approve
                      </button>
                      <button
                        type="button"
                        onClick={() => {
                          setReason('');
                          setDecision({ action: a, kind: 'Reject' });
                        }}
                      >
                        Reject
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {decision && (
        <ConfirmDialog
          title={`${decision.kind} ${decision.action.id}?`}
          confirmLabel={decision.kind}
          onClose={() => setDecision(null)}
          onConfirm={async () => {
            const { action, kind } = decision;
            const base = `/agents/${action.agentId}/actions/${action.id}`;
            const result =
              kind === 'Approve'
                ? await post<AgentAction>(`${base}/approve`)
                : await post<AgentAction>(`${base}/reject`, reason.trim() ? { reason: reason.trim() } : {});
            setNotice(`${action.id}: ${result.status}`);
            loaded.reload();
          }}
        >
          <p>
            <Money
              amount={decision.action.quote.totalSendingAmount}
              currency={decision.action.quote.sendingCurrency.code}
              decimals={decision.action.quote.sendingCurrency.decimals}
            />{' '}
            to{' '}
            {names.get(decision.action.quote.destination.accountId)?.label ??
              decision.action.quote.destination.accountId}
          </p>
          {decision.kind === 'Reject' && (
            <>
              <label for="reject-reason">Reason</label>
              <input
                id="reject-reason"
                value={reason}
                maxLength={1000}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
            </>
          )}
        </ConfirmDialog>
      )}
      <IncomingPayments mayAct={mayAct} />
    </main>
  );
}
