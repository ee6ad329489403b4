import { getSchemaPath } from '@nestjs/swagger';
import { IncomingTransactionView, OutgoingTransactionView } from './transaction.render.js';

/** The OpenAPI schema of a transaction of either direction (the reference's `oneOf` on `type`). */
export const TRANSACTION_ONE_OF = {
  oneOf: [{ $ref: getSchemaPath(IncomingTransactionView) }, { $ref: getSchemaPath(OutgoingTransactionView) }],
  discriminator: { propertyName: 'type' },
};
