import { Allow } from 'class-validator';
import { IdField, IntField, EnumField, MAX_SAFE_MINOR_UNITS, StringField } from '../common/validation.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import type { AuthorizationDecisionMaker, CardCapabilities, CardProgram } from '../platform-config/card-program.js';
import { CARD_FORMS, CARD_SUBSTATUSES, REQUESTABLE_CARD_STATUSES } from './card.types.js';
import type { CardForm, CardSubstatus, RequestableCardStatus } from './card.types.js';

export const MAX_TRANSACTIONS_PER_DAY = 2147483647;
/** Ours (the spec gives only a minimum of 1): a short sentence. */
const MAX_REASON_LENGTH = 1000;
const MAX_PASSWORD_LENGTH = 255;
const NOT_BLANK = /\S/;

/** `POST /cards` (reference CardCreateRequest), validated by the service with `validateBody`. */
export class CardCreateRequest {
  @IdField('Customer', { description: 'The cardholder; KYC must be APPROVED' })
  customerId: string;

  /** Accepted and ignored: the server generates it. */
  @Allow()
  platformCardId?: unknown;

  @StringField({ required: false, maxLength: MAX_PASSWORD_LENGTH })
  threeDSecurePassword?: string;

  @EnumField(CARD_FORMS)
  form: CardForm;

  @IdField('InternalAccount', { description: "One of the cardholder's internal accounts, in USD or USDB" })
  fundingSource: string;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false })
  maxSpendPerTransaction?: number;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false })
  maxSpendPerDay?: number;

  @IntField({ min: 1, max: MAX_TRANSACTIONS_PER_DAY, required: false })
  maxTransactionsPerDay?: number;
}

/** `PATCH /cards/{id}` (spec, reference CardUpdateRequest): each limit is an integer, null (clear) or omitted (keep). */
export class CardUpdateRequest {
  @EnumField(REQUESTABLE_CARD_STATUSES, { required: false })
  status?: RequestableCardStatus;

  @EnumField(CARD_SUBSTATUSES, { required: false })
  substatus?: CardSubstatus;

  @StringField({ required: false, minLength: 1, maxLength: MAX_REASON_LENGTH, pattern: NOT_BLANK, format: 'non-blank' })
  reason?: string;

  @IdField('InternalAccount', { required: false })
  fundingSource?: string;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true })
  maxSpendPerTransaction?: number | null;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true })
  maxSpendPerDay?: number | null;

  @IntField({ min: 1, max: MAX_TRANSACTIONS_PER_DAY, required: false, nullable: true })
  maxTransactionsPerDay?: number | null;

  @StringField({
    required: false,
    minLength: 1,
    maxLength: MAX_PASSWORD_LENGTH,
    pattern: NOT_BLANK,
    format: 'non-blank',
  })
  threeDSecurePassword?: string;
}

export const LIMIT_FIELDS = ['maxSpendPerTransaction', 'maxSpendPerDay', 'maxTransactionsPerDay'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/** The card capability each limit needs after issuance (PATCH) and at issuance (POST). */
const LIMIT_CAPABILITY: Record<LimitField, { patch: keyof CardCapabilities; issue: keyof CardCapabilities }> = {
  maxSpendPerTransaction: { patch: 'supportsSpendLimits', issue: 'supportsSpendLimitsAtIssuance' },
  maxSpendPerDay: { patch: 'supportsSpendLimits', issue: 'supportsSpendLimitsAtIssuance' },
  maxTransactionsPerDay: { patch: 'supportsTransactionCountLimit', issue: 'supportsTransactionCountLimit' },
};

/** The fields of which a PATCH needs at least one. */
const PATCH_FIELDS = ['status', 'fundingSource', ...LIMIT_FIELDS, 'threeDSecurePassword'] as const;

const present = (value: unknown) => value !== undefined;

/**
 * The PATCH rules that span fields or depend on the card and its program (the DTO checks each
 * field alone), all returned together: at least one field; `status` needs `substatus` and
 * `reason` (and they only come with it); a limit needs its capability; `threeDSecurePassword`
 * only alone and only where supported; nothing but the status with CLOSED; and, where the issuer
 * decides authorizations, no `fundingSource` with a `status` (rule 3).
 */
export function patchRuleErrors(
  body: CardUpdateRequest,
  capabilities: CardCapabilities,
  decisionMaker: AuthorizationDecisionMaker,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!PATCH_FIELDS.some((f) => present(body[f]))) {
    errors.push(fieldError('body', `at least one of ${PATCH_FIELDS.join(', ')} is required`));
    for (const f of ['substatus', 'reason'] as const)
      if (present(body[f])) errors.push(fieldError(f, `${f} is accepted only with status`));
    return errors;
  }
  if (present(body.status)) {
    if (!present(body.substatus)) errors.push(fieldError('substatus', 'substatus is required with status'));
    if (!present(body.reason)) errors.push(fieldError('reason', 'reason is required with status'));
  } else {
    for (const f of ['substatus', 'reason'] as const)
      if (present(body[f])) errors.push(fieldError(f, `${f} is accepted only with status`));
  }
  for (const f of LIMIT_FIELDS) {
    if (!present(body[f])) continue;
    const capability = LIMIT_CAPABILITY[f].patch;
    if (!capabilities[capability])
      errors.push(fieldError(f, `the card does not support ${f} (cardCapabilities.${capability} is false)`));
    if (body.status === 'CLOSED') errors.push(fieldError(f, `${f} cannot accompany status CLOSED`));
  }
  if (present(body.fundingSource)) {
    if (body.status === 'CLOSED')
      errors.push(fieldError('fundingSource', 'fundingSource cannot accompany status CLOSED'));
    else if (present(body.status) && decisionMaker === 'ISSUER')
      errors.push(
        fieldError(
          'fundingSource',
          'on this card program the issuer decides authorizations: send fundingSource and status in separate requests',
        ),
      );
  }
  if (present(body.threeDSecurePassword)) {
    if (!capabilities.supports3dSecurePassword)
      errors.push(
        fieldError(
          'threeDSecurePassword',
          'the card does not support a 3-D Secure password (cardCapabilities.supports3dSecurePassword is false)',
        ),
      );
    if (PATCH_FIELDS.some((f) => f !== 'threeDSecurePassword' && present(body[f])))
      errors.push(fieldError('threeDSecurePassword', 'threeDSecurePassword must be sent on its own'));
  }
  return errors;
}

/**
 * The issuance rules that depend on the program: the 3-D Secure password is required (non-blank)
 * where supported and refused where not; a limit only where the program accepts it at issuance.
 */
export function issuanceRuleErrors(body: CardCreateRequest, program: CardProgram): FieldError[] {
  const errors: FieldError[] = [];
  const capabilities = program.cardCapabilities;
  if (capabilities.supports3dSecurePassword) {
    const pw = body.threeDSecurePassword;
    if (pw === undefined || (typeof pw === 'string' && !NOT_BLANK.test(pw)))
      errors.push(
        fieldError('threeDSecurePassword', 'threeDSecurePassword is required (non-blank) on this card program', {
          pattern: NOT_BLANK.source,
        }),
      );
  } else if (present(body.threeDSecurePassword)) {
    errors.push(
      fieldError(
        'threeDSecurePassword',
        'cards of this program have no 3-D Secure password (cardCapabilities.supports3dSecurePassword is false)',
      ),
    );
  }
  for (const f of LIMIT_FIELDS) {
    const capability = LIMIT_CAPABILITY[f].issue;
    if (present(body[f]) && !capabilities[capability])
      errors.push(
        fieldError(f, `${f} cannot be set at issuance on this card program (cardCapabilities.${capability} is false)`),
      );
  }
  return errors;
}

/** Card currency by funding-account currency: USD cards are funded in USD or USDB (1 USDB = 1 USD). */
const CARD_CURRENCY_OF_FUNDING: Readonly<Record<string, string>> = { USD: 'USD', USDB: 'USD' };

/** The funding account as the rules need it (null when unknown or another platform's). */
export interface FundingAccount {
  customerId: string | null;
  currency: string;
}

/**
 * Why `account` cannot fund a card of `customerId` (in `cardCurrency` once issued), or null when
 * it can: it must be the cardholder's own internal account in a card-eligible currency.
 */
export function fundingSourceProblem(
  account: FundingAccount | null,
  customerId: string,
  cardCurrency?: string,
): string | null {
  if (account === null || account.customerId !== customerId)
    return "fundingSource must be one of the cardholder's own internal accounts";
  const currency = CARD_CURRENCY_OF_FUNDING[account.currency];
  if (currency === undefined || (cardCurrency !== undefined && currency !== cardCurrency))
    return `fundingSource must be in a card-eligible currency (USD or USDB for USD cards), not ${account.currency}`;
  return null;
}

/** The currency of a card funded by an account in `fundingCurrency` (eligible: see fundingSourceProblem). */
export function cardCurrencyOf(fundingCurrency: string): string {
  return CARD_CURRENCY_OF_FUNDING[fundingCurrency];
}
