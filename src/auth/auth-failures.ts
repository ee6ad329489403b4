import { Injectable } from '@nestjs/common';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';

/**
 * Failed authentications per client address (`rate-limiter-flexible`, in memory, so per replica):
 * AUTH_FAILURES_PER_ADDRESS per AUTH_FAILURE_WINDOW_MS. Past it, the auth guard refuses a
 * credential from that address with 429 RATE_LIMITED before any database work, unless the token
 * cache already knows it (so a valid, recently used token behind the same address keeps working).
 * The address is always `clientAddress(req)`.
 */
@Injectable()
export class AuthFailures {
  private readonly limiter: RateLimiterMemory;
  private readonly points: number;

  constructor(config: AppConfig) {
    this.points = config.AUTH_FAILURES_PER_ADDRESS;
    this.limiter = new RateLimiterMemory({ points: this.points, duration: config.AUTH_FAILURE_WINDOW_MS / 1000 });
  }

  /** Throws 429 when `address` has used up its failures for the window. */
  async check(address: string): Promise<void> {
    const state = await this.limiter.get(address);
    if (state && state.consumedPoints >= this.points) {
      const retryAfterSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
      throw new ApiError(
        'RATE_LIMITED',
        `Too many failed authentications from this address; retry in ${retryAfterSeconds} s`,
        {
          retryAfterSeconds,
        },
      );
    }
  }

  /** Counts a failed authentication of `address`. */
  async failed(address: string): Promise<void> {
    await this.limiter.penalty(address, 1);
  }
}
