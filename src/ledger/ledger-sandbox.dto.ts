import { IntField, MAX_SAFE_MINOR_UNITS } from '../common/validation.js';

/** Reference SandboxFundRequest; the issue sets the range (1 to 9007199254740991). */
export class SandboxFundRequest {
  @IntField({
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    description: "Amount to add, in the smallest unit of the account's currency (e.g. cents)",
  })
  amount: number;
}
