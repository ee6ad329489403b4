import { AGENTS_ERRORS } from './agents/agents.errors.js';
import { AUTH_ERRORS } from './auth/auth.errors.js';
import { CARDS_ERRORS } from './cards/cards.errors.js';
import { CUSTOMERS_ERRORS } from './customers/customers.errors.js';
import { BULK_IMPORT_ERRORS } from './bulk-import/bulk-import.errors.js';
import { DOCUMENTS_ERRORS } from './documents/documents.errors.js';
import { EMBEDDED_WALLETS_ERRORS } from './embedded-wallets/embedded-wallets.errors.js';
import { CORE_ERRORS, registerErrorCatalogue } from './errors/api-error.js';
import { EXTERNAL_ACCOUNTS_ERRORS } from './external-accounts/external-accounts.errors.js';
import { OUTBOX_ERRORS } from './outbox/outbox.errors.js';
import { PAYMENT_DOCUMENTS_ERRORS } from './payment-documents/payment-documents.errors.js';
import { PAYMENTS_ERRORS } from './payments/payments.errors.js';
import { SCA_ERRORS } from './sca/sca.errors.js';
import { STABLECOINS_ERRORS } from './stablecoins/stablecoins.errors.js';
import { UMA_ERRORS } from './uma/uma.errors.js';
import { VERIFICATIONS_ERRORS } from './verifications/verifications.errors.js';

/**
 * The one error catalogue, composed where the areas are (beside app.module.ts): the core codes
 * (src/errors/) and each area's (`<area>/<area>.errors.ts`). A new area adds its table to
 * AREA_ERRORS and ERROR_STATUS; a code is declared once (test/unit/foundation/error-catalogue.spec.ts).
 * Importing this file installs the catalogue (app.module.ts does), and its declaration merging
 * makes every code here a valid `ApiError` code.
 */
export const AREA_ERRORS = [
  AUTH_ERRORS,
  CUSTOMERS_ERRORS,
  EXTERNAL_ACCOUNTS_ERRORS,
  OUTBOX_ERRORS,
  CARDS_ERRORS,
  AGENTS_ERRORS,
  PAYMENTS_ERRORS,
  SCA_ERRORS,
  UMA_ERRORS,
  DOCUMENTS_ERRORS,
  VERIFICATIONS_ERRORS,
  BULK_IMPORT_ERRORS,
  PAYMENT_DOCUMENTS_ERRORS,
  STABLECOINS_ERRORS,
  EMBEDDED_WALLETS_ERRORS,
] as const;

/** Every code the API answers with, and its HTTP status. */
export const ERROR_STATUS = {
  ...CORE_ERRORS,
  ...AUTH_ERRORS,
  ...CUSTOMERS_ERRORS,
  ...EXTERNAL_ACCOUNTS_ERRORS,
  ...OUTBOX_ERRORS,
  ...CARDS_ERRORS,
  ...AGENTS_ERRORS,
  ...PAYMENTS_ERRORS,
  ...SCA_ERRORS,
  ...UMA_ERRORS,
  ...DOCUMENTS_ERRORS,
  ...VERIFICATIONS_ERRORS,
  ...BULK_IMPORT_ERRORS,
  ...PAYMENT_DOCUMENTS_ERRORS,
  ...STABLECOINS_ERRORS,
  ...EMBEDDED_WALLETS_ERRORS,
} as const;

type Catalogue = typeof ERROR_STATUS;

declare module './errors/api-error.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds the areas' codes to the one catalogue
  interface ErrorCatalogue extends Catalogue {}
}

registerErrorCatalogue(ERROR_STATUS);
