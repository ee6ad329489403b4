/**
 * The one domain exception. Services throw `new ApiError('CARD_NOT_MUTABLE', 'Card is closed')`;
 * the global filter renders `{code, reason, details}` with the status from the catalogue.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_REQUEST_FORMAT: 400,
  WEBHOOK_ENDPOINT_NOT_SET: 400,
  WEBHOOK_DELIVERY_ERROR: 400,
  CARDHOLDER_KYC_NOT_APPROVED: 400,
  INSUFFICIENT_FUNDS: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  CARD_NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  WEBHOOK_EVENT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  UMA_ADDRESS_EXISTS: 409,
  DUPLICATE_EXTERNAL_ACCOUNT: 409,
  INVALID_STATE_TRANSITION: 409,
  CARD_ALREADY_CLOSED: 409,
  CARD_NOT_MUTABLE: 409,
  CARD_LIMIT_REACHED: 409,
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
  CUSTOMER_DELETED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorOptions {
  details?: Record<string, unknown>;
  /** Whether an SDK retry can help (sent as `x-should-retry`); default: only for 429/5xx. */
  retryable?: boolean;
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(`${code}: ${reason}`);
    this.status = ERROR_STATUS[code];
  }

  get details(): Record<string, unknown> | undefined {
    return this.options.details;
  }

  get retryable(): boolean {
    return this.options.retryable ?? (this.status === 429 || this.status >= 500);
  }
}
