import { ApiError } from './api-error.js';

/**
 * The 503 of something this deployment has not configured (a port running adapter `none`, UMA
 * without keys): the reference's `SERVICE_UNAVAILABLE`, not retryable, `details.notConfigured`
 * naming the setting that is missing (docs/production.md). `reason` says what cannot be done.
 */
export function notConfigured(setting: string, reason: string): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', reason, { retryable: false, details: { notConfigured: setting } });
}
