import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { can, describe, get, Page, post, qs, Session } from '../api';
import { Named, useNames } from '../names';
import { ErrorNote, Facts, Loading, Status, Time, useLoad } from '../ui';

interface Attempt {
  attemptedAt: string;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

interface WebhookEvent {
  id: string;
  type: string;
  status: string;
  aggregateId: string;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  attempts: Attempt[];
}

interface Config {
  webhookEndpoint?: string;
  webhookPublicKey?: string;
  webhookSecret?: string;
}

const STATES = ['', 'PENDING', 'DELIVERED', 'FAILED'];

function Attempts(props: { attempts: Attempt[] }) {
  if (props.attempts.length === 0) return <p>No attempt yet.</p>;
  return (
    <table>
      <caption class="visually-hidden">Delivery attempts</caption>
      <thead>
        <tr>
          <th scope="col">At</th>
          <th scope="col">Status code</th>
          <th scope="col">Latency</th>
          <th scope="col">Response</th>
        </tr>
      </thead>
      <tbody>
        {props.attempts.map((a, i) => (
          <tr key={i}>
            <td>
              <Time at={a.attemptedAt} />
            </td>
            <td>{a.responseStatus ?? a.error ?? '—'}</td>
            <td>{a.durationMs} ms</td>
            <td class="excerpt">{(a.responseBody ?? '').slice(0, 200) || '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WebhooksPage(props: { session: Session }) {
  useEffect(() => {
    document.title = 'Webhooks · Operator console';
  }, []);
  const [state, setState] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const config = useLoad(() => get<Config>('/config'), []);
  const events = useLoad(
    () => get<Page<WebhookEvent>>(`/webhook-events${qs({ status: state, limit: 50 })}`),
    [state],
    5000,
  );
  const names = useNames((events.data?.data ?? []).map((e) => e.aggregateId));
  const manage = can(props.session, 'MANAGE');
  const c = config.data;
  return (
    <main id="main">
      <h1>Webhooks</h1>
      <ErrorNote error={config.error ?? error} />
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <section aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        {!c ? (
          <Loading what="the endpoint" />
        ) : (
          <Facts
            rows={[
              ['Endpoint', c.webhookEndpoint ?? 'not set'],
              ['Signature key (X-Grid-Signature)', c.webhookPublicKey ? 'set (public key published)' : 'not set'],
              [
                'Standard Webhooks secret',
                c.webhookSecret
                  ? `set (${c.webhookSecret.slice(0, 10)}…)`
                  : manage
                    ? 'not set'
                    : 'hidden (MANAGE only)',
              ],
            ]}
          />
        )}
        {manage && props.session.sandbox && (
          <button
            type="button"
            onClick={() => {
              setError(null);
              setMessage(null);
              post<{ response_status: number }>('/sandbox/webhooks/test').then(
                (r) => setMessage(`Test event sent: the endpoint answered ${r.response_status}`),
                (err: unknown) => setError(describe(err)),
              );
            }}
          >
            Send test event
          </button>
        )}
      </section>
      <section aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <label for="event-state">Delivery state</label>
        <select id="event-state" value={state} onChange={(e) => setState(e.currentTarget.value)}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s || 'All'}
            </option>
          ))}
        </select>
        <ErrorNote error={events.error} />
        {!events.data ? (
          <Loading what="events" />
        ) : events.data.data.length === 0 ? (
          <p>No events.</p>
        ) : (
          <table>
            <caption class="visually-hidden">Webhook events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Type</th>
                <th scope="col">About</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {events.data.data.map((e) => (
                <Fragment key={e.id}>
                  <tr>
                    <th scope="row" class="mono">
                      {e.id}
                    </th>
                    <td>{e.type}</td>
                    <td>
                      <Named id={e.aggregateId} names={names} />
                    </td>
                    <td>
                      <Status value={e.status} />
                    </td>
                    <td>{e.attempts.length}</td>
                    <td>
                      <Time at={e.createdAt} />
                    </td>
                    <td class="buttons">
                      <button
                        type="button"
                        aria-expanded={open === e.id}
                        aria-controls={`attempts-${e.id}`}
                        onClick={() => setOpen(open === e.id ? null : e.id)}
                      >
                        Attempts
                      </button>
                      {manage && (
                        <button
                          type="button"
                          onClick={() => {
                            setError(null);
                            setMessage(null);
                            post(`/webhook-events/${encodeURIComponent(e.id)}/redeliver`, undefined, true).then(
                              () => {
                                setMessage(`${e.id} queued for redelivery`);
                                events.reload();
                              },
                              (err: unknown) => setError(describe(err)),
                            );
                          }}
                        >
                          Redeliver
                        </button>
                      )}
                    </td>
                  </tr>
                  {open === e.id && (
                    <tr id={`attempts-${e.id}`}>
                      <td colSpan={7}>
                        <Attempts attempts={e.attempts} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
