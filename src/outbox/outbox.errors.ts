/** Error codes of the webhooks area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const OUTBOX_ERRORS = {
  WEBHOOK_ENDPOINT_NOT_SET: 400,
  WEBHOOK_DELIVERY_ERROR: 400,
} as const;
