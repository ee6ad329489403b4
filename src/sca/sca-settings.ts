import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

/** Challenge lifetime (SMS codes, passkey ceremonies, per-operation challenges). */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** How long an enrollment (TOTP secret, passkey registration) may take to confirm. */
export const ENROLLMENT_TTL_MS = 10 * 60_000;
/** How long an SCA login session lasts. */
export const SESSION_TTL_MS = 15 * 60_000;
/** Wrong answers that lock a challenge. */
export const MAX_FAILED_ATTEMPTS = 5;
/** An SMS code is re-sent at most once per this interval (the platform's clock)... */
export const RESEND_INTERVAL_MS = 30_000;
/** ...and at most this many times per challenge: then 429 RATE_LIMITED. */
export const MAX_RESENDS = 3;
/** A factor reset's window. */
export const RESET_TTL_MS = 30 * 60_000;

/** The SCA settings of this deployment, parsed once from the config. */
@Injectable()
export class ScaSettings {
  readonly regions: ReadonlySet<string>;
  readonly passkeyOrigins: readonly string[];
  readonly relyingPartyId: string;

  constructor(config: AppConfig) {
    this.regions = new Set(config.SCA_REGIONS.split(','));
    this.passkeyOrigins = config.SCA_PASSKEY_ORIGINS.split(',');
    this.relyingPartyId = config.SCA_PASSKEY_RP_ID ?? new URL(this.passkeyOrigins[0]).hostname;
  }
}
