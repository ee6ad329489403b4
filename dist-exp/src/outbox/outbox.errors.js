/** Error codes of the webhooks area and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const OUTBOX_ERRORS = {
    WEBHOOK_ENDPOINT_NOT_SET: 400,
    WEBHOOK_DELIVERY_ERROR: 400,
    WEBHOOK_EVENT_NOT_FOUND: 404,
};
//# sourceMappingURL=outbox.errors.js.map