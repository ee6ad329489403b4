/**
 * Error codes of the agents area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts). An unknown agent or device code is the core `NOT_FOUND` (the
 * reference's Error404 has no agent code); a paused agent or a missing policy permission is the
 * core `FORBIDDEN`.
 */
export const AGENTS_ERRORS = {
  /** The action is not PENDING_APPROVAL (spec); also approve/reject of an incoming payment not awaiting a decision (src/quotes). */
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
} as const;
