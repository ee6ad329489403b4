import { useState } from 'preact/hooks';
import { can, consoleGet, consolePost, type Session } from '../api';
import { ConfirmDialog, ErrorNote, Loading, Status, Time, useLoad } from '../ui';

interface WalletCredential {
  id: string;
  type: string;
  nickname: string;
  contact: string | null;
  createdAt: string;
}

interface WalletSession {
  id: string;
  type: string;
  nickname: string;
  authMethodId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  state: 'ACTIVE' | 'REVOKED' | 'EXPIRED';
}

interface WalletView {
  accountId: string;
  credentials: WalletCredential[];
  sessions: WalletSession[];
}

/**
 * A customer's embedded wallet (`GET /console/api/wallets/{accountId}`): its credentials (type,
 * nickname, masked contact) and its latest sessions, revoked and expired ones included. A MANAGE
 * token revokes a live session (`POST /console/api/wallet-sessions/{id}/revoke`, audited).
 */
export function CustomerWallet(props: { session: Session; accountId: string }) {
  const loaded = useLoad(
    () => consoleGet<WalletView>(`/wallets/${encodeURIComponent(props.accountId)}`),
    [props.accountId],
  );
  const [revoking, setRevoking] = useState<WalletSession | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const manage = can(props.session, 'MANAGE');
  const d = loaded.data;
  return (
    <section aria-labelledby="wallet-title">
      <h2 id="wallet-title">Wallet</h2>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorNote error={loaded.error} />
      {!d ? (
        <Loading what="the wallet" />
      ) : (
        <>
          <h3>Credentials</h3>
          {d.credentials.length === 0 ? (
            <p>None.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Wallet credentials</caption>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">Nickname</th>
                  <th scope="col">Contact</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {d.credentials.map((c) => (
                  <tr key={c.id} data-credential={c.id}>
                    <th scope="row">{c.type}</th>
                    <td>{c.nickname}</td>
                    <td>{c.contact ?? '—'}</td>
                    <td>
                      <Time at={c.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Sessions</h3>
          {d.sessions.length === 0 ? (
            <p>None.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Wallet sessions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Session</th>
                  <th scope="col">Credential</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">State</th>
                  {manage && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {d.sessions.map((s) => (
                  <tr key={s.id} data-session={s.id}>
                    <th scope="row" class="mono">
                      {s.id}
                    </th>
                    <td>
                      {s.type} · {s.nickname}
                    </td>
                    <td>
                      <Time at={s.createdAt} />
                    </td>
                    <td>
                      <Time at={s.expiresAt} />
                    </td>
                    <td>
                      <Status value={s.state} />
                      {s.revokedAt && (
                        <>
                          {' '}
                          <Time at={s.revokedAt} />
                        </>
                      )}
                    </td>
                    {manage && (
                      <td>
                        {s.state === 'ACTIVE' && (
                          <button type="button" onClick={() => setRevoking(s)}>
                            Revoke
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke session ${revoking.id}`}
          confirmLabel="Revoke session"
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await consolePost(`/wallet-sessions/${encodeURIComponent(revoking.id)}/revoke`);
            setNotice(`Session ${revoking.id} is revoked.`);
            loaded.reload();
          }}
        >
          <p>
            The wallet's owner is signed out of this session at once; the platform receives AUTH_SESSION.REVOKED if its
            configuration asks for it (extraWebhookTypes). The owner signs in again with a credential.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
