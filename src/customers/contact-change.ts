import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A `PATCH /customers/{id}` that changes the customer's email and/or phone number. */
export interface ContactChange {
  platformId: string;
  customerId: string;
  /** The stored contact before the change. */
  before: { email: string | null; phoneNumber: string | null };
  /** Set for the members the request changes. */
  email?: string | null;
  phoneNumber?: string | null;
  /** The request body as received (a two-step change binds it). */
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** A gate's answer: `challenge` ends the request with 202 (nothing changed); `proceed` lets the update run. */
export type ContactGateOutcome = { challenge: Record<string, unknown> } | 'proceed';

/** Runs in the update's transaction, before the customer row is written (throw to refuse: nothing changes). */
export type ContactGate = (m: EntityManager, change: ContactChange) => Promise<ContactGateOutcome>;

/**
 * Where another area (embedded wallets: a contact tied to a wallet's OTP credential) gates a
 * customer's contact change without the customers area importing it (docs/embedded-wallets.md,
 * "Changing a customer's email or phone"). No gate registered: the one-step PATCH.
 */
@Injectable()
export class ContactChangeGates {
  private readonly gates: ContactGate[] = [];

  register(gate: ContactGate): void {
    this.gates.push(gate);
  }

  async run(m: EntityManager, change: ContactChange): Promise<ContactGateOutcome> {
    for (const gate of this.gates) {
      const outcome = await gate(m, change);
      if (outcome !== 'proceed') return outcome;
    }
    return 'proceed';
  }
}
