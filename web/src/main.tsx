import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentSession, describe, Session, signIn, signOut, whenSignedOut } from './api';
import { Link, navigate, usePath } from './ui';
import { OverviewPage } from './pages/overview';
import { ApprovalsPage } from './pages/approvals';
import { CardPage, CardsPage } from './pages/cards';
import { AgentPage, AgentsPage } from './pages/agents';
import { WebhooksPage } from './pages/webhooks';
import { CustomerPage, CustomersPage } from './pages/customers';
import { TransactionPage, TransactionsPage } from './pages/transactions';
import { StablecoinPage, StablecoinsPage } from './pages/stablecoins';
import { AttentionPage } from './pages/attention';
import './styles.css';

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

function SignIn(props: { onSignedIn: (s: Session) => void; notice: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Sign in · Operator console';
  }, []);
  return (
    <main class="signin">
      <h1>Operator console</h1>
      <p>Sign in with an API token of your platform (its client ID and client secret).</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setBusy(true);
          setError(null);
          signIn(field(form, 'clientId'), field(form, 'clientSecret')).then(
            (s) => {
              setBusy(false);
              props.onSignedIn(s);
            },
            (err: unknown) => {
              setBusy(false);
              setError(describe(err));
            },
          );
        }}
      >
        <label for="client-id">Client ID</label>
        <input id="client-id" name="clientId" autoComplete="username" required spellcheck={false} />
        <label for="client-secret">Client secret</label>
        <input id="client-secret" name="clientSecret" type="password" autoComplete="current-password" required />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

const NAV: Array<[string, string]> = [
  ['/', 'Overview'],
  ['/approvals', 'Approvals'],
  ['/cards', 'Cards'],
  ['/agents', 'Agents'],
  ['/webhooks', 'Webhooks'],
  ['/customers', 'Customers'],
  ['/transactions', 'Transactions'],
  ['/stablecoins', 'Stablecoins'],
  ['/attention', 'Needs attention'],
];

function Page(props: { path: string; session: Session }) {
  const { path, session } = props;
  const [, section, id] = path.split('/');
  const decoded = id ? decodeURIComponent(id) : undefined;
  switch (section) {
    case '':
      return <OverviewPage session={session} />;
    case 'approvals':
      return <ApprovalsPage session={session} />;
    case 'cards':
      return decoded ? <CardPage session={session} id={decoded} /> : <CardsPage session={session} />;
    case 'agents':
      return decoded ? <AgentPage session={session} id={decoded} /> : <AgentsPage session={session} />;
    case 'webhooks':
      return <WebhooksPage session={session} />;
    case 'customers':
      return decoded ? <CustomerPage session={session} id={decoded} /> : <CustomersPage />;
    case 'transactions':
      return decoded ? <TransactionPage id={decoded} /> : <TransactionsPage />;
    case 'stablecoins':
      return decoded ? <StablecoinPage session={session} id={decoded} /> : <StablecoinsPage session={session} />;
    case 'attention':
      return <AttentionPage session={session} />;
    default:
      return (
        <main id="main">
          <h1>Not found</h1>
          <p>
            No console page at this address. <Link to="/">Go to the overview</Link>.
          </p>
        </main>
      );
  }
}

function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    whenSignedOut(() => {
      setSession(null);
      setNotice('Your session has ended. Sign in again.');
    });
    currentSession().then(setSession, () => setSession(null));
  }, []);
  if (session === undefined) return <p aria-busy="true">Loading…</p>;
  if (session === null) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(s) => {
          setNotice(null);
          setSession(s);
        }}
      />
    );
  }
  const section = `/${path.split('/')[1] ?? ''}`;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Operator console</span>
        {session.sandbox && (
          <span class="badge" title="Sandbox routes are on">
            SANDBOX
          </span>
        )}
        <nav aria-label="Console">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <Link to={to} current={section === to}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.token.name} · {session.token.permissions.join(', ')}
        </span>
        <button
          type="button"
          onClick={() => {
            void signOut().finally(() => {
              setNotice('You are signed out.');
              setSession(null);
              navigate('/');
            });
          }}
        >
          Sign out
        </button>
      </header>
      {session.sandboxOnDatabase && (
        <p class="sandbox-banner" role="note">
          Sandbox on a real database (SANDBOX=true with DATABASE_URL): payouts, cards, messages and the other providers
          are simulated; no money or message leaves this deployment. Production runs SANDBOX=false (see
          docs/production.md).
        </p>
      )}
      <Page path={path} session={session} />
    </>
  );
}

render(<App />, document.getElementById('app')!);
