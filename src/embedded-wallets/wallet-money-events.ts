/**
 * The events of wallet exports and delegated keys (ours: the reference names none), in its
 * OBJECT.EVENT notation. No secret, mnemonic or private key is ever in their data.
 */
export interface WalletExportedEvent {
  id: string;
  requestId: string;
  exportedAt: string;
}

/**
 * The reference's DelegatedKey (never the private key): what `GET /auth/delegated-keys/{id}`
 * renders (`renderDelegatedKey`), and the data of every `DELEGATED_KEY.*` event.
 */
export interface DelegatedKey {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  publicKey: string;
  nickname: string;
  status: 'PENDING' | 'ACTIVE' | 'REVOKED';
  createdAt: string;
  updatedAt: string;
}

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'INTERNAL_ACCOUNT.EXPORTED': WalletExportedEvent;
    'DELEGATED_KEY.CREATED': DelegatedKey;
    'DELEGATED_KEY.ACTIVATED': DelegatedKey;
    'DELEGATED_KEY.REVOKED': DelegatedKey;
  }
}
