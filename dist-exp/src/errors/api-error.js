import { AGENTS_ERRORS } from '../agents/agents.errors.js';
import { AUTH_ERRORS } from '../auth/auth.errors.js';
import { CARDS_ERRORS } from '../cards/cards.errors.js';
import { CUSTOMERS_ERRORS } from '../customers/customers.errors.js';
import { EXTERNAL_ACCOUNTS_ERRORS } from '../external-accounts/external-accounts.errors.js';
import { OUTBOX_ERRORS } from '../outbox/outbox.errors.js';
import { QUOTES_ERRORS } from '../quotes/quotes.errors.js';
/**
 * The one domain exception. Services throw `new ApiError('CUSTOMER_DELETED', 'Customer ... has
 * been deleted')`; the global filter renders `{code, reason, details}` with the status from the
 * catalogue.
 */
/** Codes any area may answer with (HTTP-level and generic ones). */
export const CORE_ERRORS = {
    INVALID_INPUT: 400,
    INVALID_REQUEST_FORMAT: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    /**
     * The reference's Error404 code for a transaction, shared by the areas that have transactions:
     * agents (approve/reject of an unknown action, the spec) and cards (a card transaction that is
     * not this card's).
     */
    TRANSACTION_NOT_FOUND: 404,
    METHOD_NOT_ALLOWED: 405,
    REQUEST_TIMEOUT: 408,
    CONFLICT: 409,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    HEADERS_TOO_LARGE: 431,
    RATE_LIMITED: 429,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
};
/**
 * Each area declares its own codes in its folder (`<area>/<area>.errors.ts`); a new area adds
 * its table here. A code is declared once (test/unit/foundation/error-catalogue.spec.ts).
 */
export const AREA_ERRORS = [
    AUTH_ERRORS,
    CUSTOMERS_ERRORS,
    EXTERNAL_ACCOUNTS_ERRORS,
    OUTBOX_ERRORS,
    CARDS_ERRORS,
    AGENTS_ERRORS,
    QUOTES_ERRORS,
];
/** The one catalogue: every code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
    ...CORE_ERRORS,
    ...AUTH_ERRORS,
    ...CUSTOMERS_ERRORS,
    ...EXTERNAL_ACCOUNTS_ERRORS,
    ...OUTBOX_ERRORS,
    ...CARDS_ERRORS,
    ...AGENTS_ERRORS,
    ...QUOTES_ERRORS,
};
export class ApiError extends Error {
    code;
    reason;
    options;
    status;
    constructor(code, reason, options = {}) {
        super(`${code}: ${reason}`);
        this.code = code;
        this.reason = reason;
        this.options = options;
        this.status = ERROR_STATUS[code];
    }
    get details() {
        return this.options.details;
    }
    get retryable() {
        return this.options.retryable ?? (this.status === 429 || this.status >= 500);
    }
}
//# sourceMappingURL=api-error.js.map