import { useEffect } from 'preact/hooks';
import { get, Page, qs, Session } from '../api';
import { ErrorNote, Link, Loading, useLoad } from '../ui';

const CARD_STATUSES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
const count = (path: string) => get<Page<unknown>>(path).then((p) => p.totalCount);

export function OverviewPage(props: { session: Session }) {
  useEffect(() => {
    document.title = 'Overview · Operator console';
  }, []);
  const loaded = useLoad(
    async () => {
      const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
      const [pending, cards, failed, backlog] = await Promise.all([
        count('/agents/approvals?limit=1'),
        Promise.all(CARD_STATUSES.map((s) => count(`/cards${qs({ status: s, limit: 1 })}`))),
        count(`/webhook-events${qs({ status: 'FAILED', createdAfter: since, limit: 1 })}`),
        count(`/webhook-events${qs({ status: 'PENDING', createdAfter: since, limit: 1 })}`),
      ]);
      return { pending, cards, failed, backlog };
    },
    [],
    5000,
  );
  const d = loaded.data;
  return (
    <main id="main">
      <h1>Overview</h1>
      {props.session.sandbox && <p class="notice">Sandbox routes are on: this platform is a sandbox.</p>}
      <ErrorNote error={loaded.error} />
      {!d ? (
        <Loading what="the overview" />
      ) : (
        <div class="tiles">
          <section aria-labelledby="ov-approvals">
            <h2 id="ov-approvals">Pending approvals</h2>
            <p class="big">{d.pending}</p>
            <Link to="/approvals">Review approvals</Link>
          </section>
          <section aria-labelledby="ov-cards">
            <h2 id="ov-cards">Cards by status</h2>
            <table>
              <caption class="visually-hidden">Number of cards in each status</caption>
              <tbody>
                {CARD_STATUSES.map((s, i) => (
                  <tr key={s}>
                    <th scope="row">{s}</th>
                    <td>{d.cards[i]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="ov-webhooks">
            <h2 id="ov-webhooks">Webhooks, last 24 h</h2>
            <p>
              Failed: <strong>{d.failed}</strong>
            </p>
            <p>
              Backlog (pending): <strong>{d.backlog}</strong>
            </p>
            <Link to="/webhooks">See webhook events</Link>
          </section>
        </div>
      )}
    </main>
  );
}
