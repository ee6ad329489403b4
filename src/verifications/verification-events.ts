import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { ReferenceWebhookType } from '../outbox/webhook-types.js';
import type { Verification } from './verification.dto.js';

/** `VERIFICATION.<status>` (reference VerificationWebhook): the verification is the data and the aggregate. */
export function verificationEvent(platformId: string, verification: Verification): OutboxWrite {
  return {
    platformId,
    type: `VERIFICATION.${verification.verificationStatus}` as ReferenceWebhookType,
    aggregateId: verification.id,
    data: { ...verification },
  };
}
