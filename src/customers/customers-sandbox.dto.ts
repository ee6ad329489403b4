import { EnumField } from '../common/validation.js';
import { KYC_STATUSES } from './customer.types.js';
import type { KycStatus } from './customer.types.js';

export class SandboxKycRequest {
  @EnumField(KYC_STATUSES, { description: 'The KYC (KYB for a business) status to set' })
  kycStatus: KycStatus;
}
