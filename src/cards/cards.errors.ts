/**
 * Error codes of the cards area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts). An unknown card, or another platform's, is the core 404 `NOT_FOUND`
 * (the reference's Error404): there is no card-specific not-found code.
 */
export const CARDS_ERRORS = {
  /** The cardholder's KYC is not APPROVED: the card cannot be issued. */
  CARDHOLDER_KYC_NOT_APPROVED: 400,
  /** A requested status change that is not one of the allowed edges (card-state-machine.ts). */
  INVALID_STATE_TRANSITION: 409,
  /** CLOSED requested for a CLOSED card. */
  CARD_ALREADY_CLOSED: 409,
  /** Any other change requested of a CLOSED card. */
  CARD_NOT_MUTABLE: 409,
  /** The platform holds `cardProgram.maxLiveCards` live cards, or the cardholder one where only one is allowed. */
  CARD_LIMIT_REACHED: 409,
} as const;
