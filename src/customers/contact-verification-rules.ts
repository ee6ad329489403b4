import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
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
