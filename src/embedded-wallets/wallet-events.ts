import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { AuthMethod, AuthSession } from './wallet.dto.js';

/**
 * The embedded-wallet events (ours: the reference names none for Embedded Wallet Auth), in its
 * OBJECT.EVENT notation. The data is the credential or session as the API renders it: no OTP,
 * key material or token ever (a session carries only ids, type, nickname and times).
 */
export type WalletEventType =
  'AUTH_CREDENTIAL.CREATED' | 'AUTH_CREDENTIAL.REVOKED' | 'AUTH_SESSION.CREATED' | 'AUTH_SESSION.REVOKED';

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'AUTH_CREDENTIAL.CREATED': AuthMethod;
    'AUTH_CREDENTIAL.REVOKED': AuthMethod;
    'AUTH_SESSION.CREATED': AuthSession;
    'AUTH_SESSION.REVOKED': AuthSession;
  }
}

export function credentialEvent(
  platformId: string,
  type: 'AUTH_CREDENTIAL.CREATED' | 'AUTH_CREDENTIAL.REVOKED',
  credential: AuthMethod,
): OutboxWrite<'AUTH_CREDENTIAL.CREATED' | 'AUTH_CREDENTIAL.REVOKED'> {
  return { platformId, type, aggregateId: credential.accountId, data: { ...credential } };
}

export function sessionEvent(
  platformId: string,
  type: 'AUTH_SESSION.CREATED' | 'AUTH_SESSION.REVOKED',
  session: AuthSession,
): OutboxWrite<'AUTH_SESSION.CREATED' | 'AUTH_SESSION.REVOKED'> {
  return { platformId, type, aggregateId: session.accountId, data: { ...session } };
}
