import { IdField, IntField, StringField } from '../common/validation.js';

/** The reference's SandboxUmaReceiveRequest. */
export class SandboxUmaReceiveRequest {
  @StringField({
    maxLength: 255,
    description:
      'A sandbox sender: `$success.<currency>@sandbox.grid.uma.money` settles, `$fail.<currency>@…` fails after approval, `$slow.<currency>@…` settles an hour (platform time) after approval',
  })
  senderUmaAddress: string;

  @StringField({ required: false, maxLength: 255, description: 'Optional if customerId is provided' })
  receiverUmaAddress?: string;

  @IdField('Customer', { required: false, description: 'Optional if receiverUmaAddress is provided' })
  customerId?: string;

  @StringField({ pattern: /^[A-Z]{3,5}$/, format: 'currency code' })
  receivingCurrencyCode: string;

  @IntField({ min: 1, max: 9_007_199_254_740_991, description: 'Minor units of the receiving currency' })
  receivingCurrencyAmount: number;
}
