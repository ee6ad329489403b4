import type { CardStatus, ProvisioningOutcome, RequestableCardStatus } from './card.types.js';

/**
 * The card state machine (spec: Card.status and PATCH /cards/{id} rules 1 and 2). Pure: no I/O.
 *
 * Requested by the platform (PATCH): exactly ACTIVE→FROZEN, FROZEN→ACTIVE, ACTIVE→CLOSED,
 * FROZEN→CLOSED. Done by the issuer (provisioning, never requested): PROCESSING→ACTIVE,
 * PROCESSING→CLOSED (ISSUER_REJECTED), PROCESSING→PENDING_KYC (the cardholder's KYC is no longer
 * APPROVED), PENDING_KYC→ACTIVE (approved again) or →CLOSED (rejected).
 */
export const REQUESTED_TRANSITIONS: Readonly<Record<CardStatus, readonly RequestableCardStatus[]>> = {
  PENDING_KYC: [],
  PROCESSING: [],
  ACTIVE: ['FROZEN', 'CLOSED'],
  FROZEN: ['ACTIVE', 'CLOSED'],
  CLOSED: [],
};

export const PROVISIONING_TRANSITIONS: Readonly<Record<CardStatus, readonly CardStatus[]>> = {
  PENDING_KYC: ['ACTIVE', 'CLOSED'],
  PROCESSING: ['ACTIVE', 'CLOSED', 'PENDING_KYC'],
  ACTIVE: [],
  FROZEN: [],
  CLOSED: [],
};

/** The 409 a PATCH gets from the card's state, after its body passed validation. */
export type PatchRefusal = 'INVALID_STATE_TRANSITION' | 'CARD_ALREADY_CLOSED' | 'CARD_NOT_MUTABLE';

/**
 * Judges a PATCH against the card's current status: null when it may proceed. A transition
 * request is judged as a transition (ACTIVE or FROZEN requested of a CLOSED card is
 * INVALID_STATE_TRANSITION); CLOSED requested of a CLOSED card is CARD_ALREADY_CLOSED; a request
 * without `status` on a CLOSED card is CARD_NOT_MUTABLE.
 */
export function judgePatch(current: CardStatus, requested: RequestableCardStatus | undefined): PatchRefusal | null {
  if (requested === undefined) return current === 'CLOSED' ? 'CARD_NOT_MUTABLE' : null;
  if (current === 'CLOSED' && requested === 'CLOSED') return 'CARD_ALREADY_CLOSED';
  return REQUESTED_TRANSITIONS[current].includes(requested) ? null : 'INVALID_STATE_TRANSITION';
}

/** Whether `from → to` is an edge of the machine (requested or provisioning). */
export function isAllowedEdge(from: CardStatus, to: CardStatus): boolean {
  return (
    (REQUESTED_TRANSITIONS[from] as readonly CardStatus[]).includes(to) || PROVISIONING_TRANSITIONS[from].includes(to)
  );
}

/**
 * Where provisioning takes a PROCESSING or PENDING_KYC card: the issuer's outcome, held back in
 * PENDING_KYC while the cardholder's KYC is not APPROVED. Null when nothing changes (a PENDING_KYC
 * card whose cardholder is still not approved).
 */
export function provisioningTarget(
  current: CardStatus,
  outcome: ProvisioningOutcome,
  kycApproved: boolean,
): 'ACTIVE' | 'CLOSED' | 'PENDING_KYC' | null {
  if (current !== 'PROCESSING' && current !== 'PENDING_KYC') return null;
  if (outcome === 'ISSUER_REJECTED') return 'CLOSED';
  if (kycApproved) return 'ACTIVE';
  return current === 'PENDING_KYC' ? null : 'PENDING_KYC';
}
