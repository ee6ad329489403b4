/**
 * The events of wallet exports and delegated keys (ours: the reference names none), in its
 * OBJECT.EVENT notation. No secret, mnemonic or private key is ever in their data.
 */
export interface WalletExportedEvent {
  id: string;
  requestId: string;
  exportedAt: string;
}

export interface DelegatedKeyEventData {
  id: string;
  accountId: string;
  cardId: string;
  status: string;
  publicKey: string;
  createdAt: string;
  updatedAt: string;
}

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'INTERNAL_ACCOUNT.EXPORTED': WalletExportedEvent;
    'DELEGATED_KEY.CREATED': DelegatedKeyEventData;
    'DELEGATED_KEY.ACTIVATED': DelegatedKeyEventData;
    'DELEGATED_KEY.REVOKED': DelegatedKeyEventData;
  }
}
