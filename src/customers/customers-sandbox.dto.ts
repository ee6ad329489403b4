import { EnumField, IntField, MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { KYC_STATUSES } from './customer.types.js';
import type { KycStatus } from './customer.types.js';

export class SandboxKycRequest {
  @EnumField(KYC_STATUSES, { description: 'The KYC (KYB for a business) status to set' })
  kycStatus: KycStatus;
}

/** Reference SandboxFundRequest; the issue sets the range (1 to 9007199254740991). */
export class SandboxFundRequest {
  @IntField({
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    description: "Amount to add, in the smallest unit of the account's currency (e.g. cents)",
  })
  amount: number;
}
