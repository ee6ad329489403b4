/** Error codes of agent actions and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const AGENT_ACTIONS_ERRORS = {
  /** The spec's 404 of the approve and reject operations: unknown agent, unknown action, or another's. */
  TRANSACTION_NOT_FOUND: 404,
  /** The spec's 409: the action is no longer PENDING_APPROVAL. */
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
} as const;
