/**
 * Error codes of the messaging ports (src/error-catalogue.ts). A refused hand-off (the relay, Twilio
 * or the hook said no) is the core 503 `SERVICE_UNAVAILABLE`: nothing the request wrote is kept.
 */
export const MESSAGING_ERRORS = {
  /** EMAIL_TRANSPORT=none: this deployment sends no email, so a route that must send a code cannot run. */
  EMAIL_NOT_CONFIGURED: 503,
  /** SMS_TRANSPORT=none: this deployment sends no SMS, so a route that must send a code cannot run. */
  SMS_NOT_CONFIGURED: 503,
} as const;
