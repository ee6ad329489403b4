import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import type { ContactVerification } from './customer.types.js';

export type ContactChannel = 'EMAIL' | 'PHONE';

export const contactKey = (channel: ContactChannel): keyof ContactVerification =>
  channel === 'EMAIL' ? 'email' : 'phone';

/**
 * Which channels a customer must verify: those of CONTACT_VERIFICATION_CHANNELS when its `region`
 * is one of CONTACT_VERIFICATION_REGIONS, else none (the reference: "only present when the
 * customer's regulatory jurisdiction requires contact verification").
 */
@Injectable()
export class ContactVerificationRules {
  private readonly regions: ReadonlySet<string>;
  private readonly channels: readonly ContactChannel[];

  constructor(config: AppConfig) {
    this.regions = new Set(
      config.CONTACT_VERIFICATION_REGIONS === 'none' ? [] : config.CONTACT_VERIFICATION_REGIONS.split(','),
    );
    this.channels = config.CONTACT_VERIFICATION_CHANNELS.split(',') as ContactChannel[];
  }

  /**
   * The customer's `contactVerification` after a create or an update: each required channel stays
   * VERIFIED only while its address is the one verified (`changed` says which addresses changed);
   * a newly required channel is PENDING; null when the region requires none.
   */
  stateFor(
    region: string | null,
    previous: ContactVerification | null,
    changed: { email: boolean; phone: boolean },
  ): ContactVerification | null {
    if (region === null || !this.regions.has(region.toUpperCase())) return null;
    const state: ContactVerification = {};
    for (const channel of this.channels) {
      const k = contactKey(channel);
      state[k] = previous?.[k] === 'VERIFIED' && !changed[k] ? 'VERIFIED' : 'PENDING';
    }
    return state;
  }
}

/**
 * Before a customer begins KYC (the hosted KYC link): every channel its region requires must be
 * VERIFIED, else 409 CONFLICT (the reference's kyc-link 409) naming the statuses.
 */
export function requireContactVerified(customer: {
  id: string;
  contactVerification: ContactVerification | null;
}): void {
  const state = customer.contactVerification;
  if (!state || Object.values(state).every((status) => status === 'VERIFIED')) return;
  throw new ApiError(
    'CONFLICT',
    "The customer's provider requires contact verification first: verify-email / verify-phone, then their /confirm",
    { details: { contactVerification: state } },
  );
}
