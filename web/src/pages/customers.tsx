import { useEffect } from 'preact/hooks';
import { get, Page, qs, type Session } from '../api';
import { CopyableId, Named, useNames } from '../names';
import { ErrorNote, Facts, Link, Loading, Money, Status, Time, useLoad } from '../ui';
import type { Card } from './cards';
import { CustomerQuotes } from './customer-quotes';
import { CustomerOnboarding } from './customer-onboarding';
import { CustomerWallet } from './customer-wallet';

interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: string;
  kycStatus?: string;
  fullName?: string;
  businessInfo?: { legalName?: string };
  createdAt: string;
}

interface Amount {
  amount: number;
  currency: { code: string; decimals: number };
}

interface InternalAccount {
  id: string;
  type: string;
  status: string;
  balance: Amount;
  totalBalance: Amount;
}

interface ExternalAccount {
  id: string;
  status: string;
  currency: string;
  accountInfo?: { accountType?: string };
}

interface Agent {
  id: string;
  name: string;
  isPaused: boolean;
  isConnected: boolean;
}

const nameOf = (c: Customer) => c.fullName ?? c.businessInfo?.legalName ?? c.platformCustomerId;

export function CustomersPage() {
  useEffect(() => {
    document.title = 'Customers · Operator console';
  }, []);
  const loaded = useLoad(() => get<Page<Customer>>('/customers?limit=100'), []);
  return (
    <main id="main">
      <h1>Customers</h1>
      <ErrorNote error={loaded.error} />
      {!loaded.data ? (
        <Loading what="customers" />
      ) : loaded.data.data.length === 0 ? (
        <p>No customers yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Customers</caption>
          <thead>
            <tr>
              <th scope="col">Customer</th>
              <th scope="col">Platform customer id</th>
              <th scope="col">Type</th>
              <th scope="col">KYC</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.data.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to={`/customers/${encodeURIComponent(c.id)}`}>{nameOf(c)}</Link>
                </th>
                <td class="mono">{c.platformCustomerId}</td>
                <td>{c.customerType}</td>
                <td>{c.kycStatus ?? '—'}</td>
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

export function CustomerPage(props: { session: Session; id: string }) {
  useEffect(() => {
    document.title = `Customer ${props.id} · Operator console`;
  }, [props.id]);
  const loaded = useLoad(async () => {
    const id = props.id;
    const [customer, accounts, external, cards, agents] = await Promise.all([
      get<Customer>(`/customers/${encodeURIComponent(id)}`),
      get<Page<InternalAccount>>(`/customers/internal-accounts${qs({ customerId: id, limit: 100 })}`),
      get<Page<ExternalAccount>>(`/customers/external-accounts${qs({ customerId: id, limit: 100 })}`),
      get<Page<Card>>(`/cards${qs({ customerId: id, limit: 100 })}`),
      get<Page<Agent>>(`/agents${qs({ customerId: id, limit: 100 })}`),
    ]);
    return { customer, accounts: accounts.data, external: external.data, cards: cards.data, agents: agents.data };
  }, [props.id]);
  const d = loaded.data;
  const names = useNames([...(d?.accounts.map((a) => a.id) ?? []), ...(d?.external.map((x) => x.id) ?? [])]);
  return (
    <main id="main">
      <p>
        <Link to="/customers">← Customers</Link>
      </p>
      <h1>{d ? nameOf(d.customer) : 'Customer'}</h1>
      {d && (
        <p>
          <Link to={`/transactions?customerId=${encodeURIComponent(d.customer.id)}`}>
            Transactions of this customer
          </Link>
        </p>
      )}
      <ErrorNote error={loaded.error} />
      {!d ? (
        <Loading what="the customer" />
      ) : (
        <>
          <Facts
            rows={[
              ['Id', <CopyableId id={d.customer.id} />],
              ['Platform customer id', d.customer.platformCustomerId],
              ['Type', d.customer.customerType],
              ['KYC', d.customer.kycStatus ?? '—'],
            ]}
          />
          <CustomerOnboarding customerId={d.customer.id} business={d.customer.customerType === 'BUSINESS'} />
          <section aria-labelledby="accounts-title">
            <h2 id="accounts-title">Internal accounts</h2>
            {d.accounts.length === 0 ? (
              <p>None.</p>
            ) : (
              <table>
                <caption class="visually-hidden">Internal accounts and balances</caption>
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    <th scope="col">Type</th>
                    <th scope="col">Available</th>
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {d.accounts.map((a) => (
                    <tr key={a.id}>
                      <th scope="row">
                        <Named id={a.id} names={names} />
                      </th>
                      <td>{a.type}</td>
                      <td>
                        <Money
                          amount={a.balance.amount}
                          currency={a.balance.currency.code}
                          decimals={a.balance.currency.decimals}
                        />
                      </td>
                      <td>
                        <Money
                          amount={a.totalBalance.amount}
                          currency={a.totalBalance.currency.code}
                          decimals={a.totalBalance.currency.decimals}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          {d.accounts
            .filter((a) => a.type === 'EMBEDDED_WALLET')
            .map((a) => (
              <CustomerWallet key={a.id} session={props.session} accountId={a.id} />
            ))}
          <section aria-labelledby="external-title">
            <h2 id="external-title">External accounts</h2>
            {d.external.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {d.external.map((x) => (
                  <li key={x.id}>
                    <Named id={x.id} names={names} /> · {x.accountInfo?.accountType ?? ''} {x.currency} · {x.status}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="cards-title">
            <h2 id="cards-title">Cards</h2>
            {d.cards.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {d.cards.map((c) => (
                  <li key={c.id}>
                    <Link to={`/cards/${encodeURIComponent(c.id)}`}>{c.last4 ? `•••• ${c.last4}` : c.id}</Link>{' '}
                    <Status value={c.status} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="agents-title">
            <h2 id="agents-title">Agents</h2>
            {d.agents.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {d.agents.map((a) => (
                  <li key={a.id}>
                    <Link to={`/agents/${encodeURIComponent(a.id)}`}>{a.name}</Link> ·{' '}
                    {a.isPaused ? 'paused' : 'running'} · {a.isConnected ? 'connected' : 'not connected'}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <CustomerQuotes customerId={d.customer.id} />
        </>
      )}
    </main>
  );
}
