/**
 * Error codes of the agents area and their HTTP status; merged into the one catalogue
 * (src/errors/api-error.ts). An unknown agent or device code is the core `NOT_FOUND` (the
 * reference's Error404 has no agent code); a paused agent or a missing policy permission is the
 * core `FORBIDDEN`.
 */
export const AGENTS_ERRORS = {
    /** The action is not PENDING_APPROVAL (spec). */
    TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
    QUOTE_NOT_FOUND: 404,
    /** The spec's code for an expired quote. */
    QUOTE_EXPIRED: 400,
};
//# sourceMappingURL=agents.errors.js.map