/** Error codes of card transactions and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const CARD_TRANSACTIONS_ERRORS = {
  /** The reference's Error404 code for a transaction (here: a card transaction of another card or platform, or none). */
  TRANSACTION_NOT_FOUND: 404,
} as const;
