var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Allow } from 'class-validator';
import { IdField, IntField, EnumField, MAX_SAFE_MINOR_UNITS, StringField } from '../common/validation.js';
import { fieldError } from '../errors/field-error.js';
import { CARD_FORMS, CARD_SUBSTATUSES, REQUESTABLE_CARD_STATUSES } from './card.types.js';
export const MAX_TRANSACTIONS_PER_DAY = 2147483647;
/** Ours (the spec gives only a minimum of 1): a short sentence. */
const MAX_REASON_LENGTH = 1000;
const MAX_PASSWORD_LENGTH = 255;
const NOT_BLANK = /\S/;
/** `POST /cards` (reference CardCreateRequest), validated by the service with `validateBody`. */
export class CardCreateRequest {
    customerId;
    /** Accepted and ignored: the server generates it. */
    platformCardId;
    threeDSecurePassword;
    form;
    fundingSource;
    maxSpendPerTransaction;
    maxSpendPerDay;
    maxTransactionsPerDay;
}
__decorate([
    IdField('Customer', { description: 'The cardholder; KYC must be APPROVED' }),
    __metadata("design:type", String)
], CardCreateRequest.prototype, "customerId", void 0);
__decorate([
    Allow(),
    __metadata("design:type", Object)
], CardCreateRequest.prototype, "platformCardId", void 0);
__decorate([
    StringField({ required: false, maxLength: MAX_PASSWORD_LENGTH }),
    __metadata("design:type", String)
], CardCreateRequest.prototype, "threeDSecurePassword", void 0);
__decorate([
    EnumField(CARD_FORMS),
    __metadata("design:type", String)
], CardCreateRequest.prototype, "form", void 0);
__decorate([
    IdField('InternalAccount', { description: "One of the cardholder's internal accounts, in USD or USDB" }),
    __metadata("design:type", String)
], CardCreateRequest.prototype, "fundingSource", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false }),
    __metadata("design:type", Number)
], CardCreateRequest.prototype, "maxSpendPerTransaction", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false }),
    __metadata("design:type", Number)
], CardCreateRequest.prototype, "maxSpendPerDay", void 0);
__decorate([
    IntField({ min: 1, max: MAX_TRANSACTIONS_PER_DAY, required: false }),
    __metadata("design:type", Number)
], CardCreateRequest.prototype, "maxTransactionsPerDay", void 0);
/** `PATCH /cards/{id}` (spec, reference CardUpdateRequest): each limit is an integer, null (clear) or omitted (keep). */
export class CardUpdateRequest {
    status;
    substatus;
    reason;
    fundingSource;
    maxSpendPerTransaction;
    maxSpendPerDay;
    maxTransactionsPerDay;
    threeDSecurePassword;
}
__decorate([
    EnumField(REQUESTABLE_CARD_STATUSES, { required: false }),
    __metadata("design:type", String)
], CardUpdateRequest.prototype, "status", void 0);
__decorate([
    EnumField(CARD_SUBSTATUSES, { required: false }),
    __metadata("design:type", String)
], CardUpdateRequest.prototype, "substatus", void 0);
__decorate([
    StringField({ required: false, minLength: 1, maxLength: MAX_REASON_LENGTH, pattern: NOT_BLANK, format: 'non-blank' }),
    __metadata("design:type", String)
], CardUpdateRequest.prototype, "reason", void 0);
__decorate([
    IdField('InternalAccount', { required: false }),
    __metadata("design:type", String)
], CardUpdateRequest.prototype, "fundingSource", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardUpdateRequest.prototype, "maxSpendPerTransaction", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardUpdateRequest.prototype, "maxSpendPerDay", void 0);
__decorate([
    IntField({ min: 1, max: MAX_TRANSACTIONS_PER_DAY, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardUpdateRequest.prototype, "maxTransactionsPerDay", void 0);
__decorate([
    StringField({
        required: false,
        minLength: 1,
        maxLength: MAX_PASSWORD_LENGTH,
        pattern: NOT_BLANK,
        format: 'non-blank',
    }),
    __metadata("design:type", String)
], CardUpdateRequest.prototype, "threeDSecurePassword", void 0);
export const LIMIT_FIELDS = ['maxSpendPerTransaction', 'maxSpendPerDay', 'maxTransactionsPerDay'];
/** The card capability each limit needs after issuance (PATCH) and at issuance (POST). */
const LIMIT_CAPABILITY = {
    maxSpendPerTransaction: { patch: 'supportsSpendLimits', issue: 'supportsSpendLimitsAtIssuance' },
    maxSpendPerDay: { patch: 'supportsSpendLimits', issue: 'supportsSpendLimitsAtIssuance' },
    maxTransactionsPerDay: { patch: 'supportsTransactionCountLimit', issue: 'supportsTransactionCountLimit' },
};
/** The fields of which a PATCH needs at least one. */
const PATCH_FIELDS = ['status', 'fundingSource', ...LIMIT_FIELDS, 'threeDSecurePassword'];
const present = (value) => value !== undefined;
/**
 * The PATCH rules that span fields or depend on the card and its program (the DTO checks each
 * field alone), all returned together: at least one field; `status` needs `substatus` and
 * `reason` (and they only come with it); a limit needs its capability; `threeDSecurePassword`
 * only alone and only where supported; nothing but the status with CLOSED; and, where the issuer
 * decides authorizations, no `fundingSource` with a `status` (rule 3).
 */
export function patchRuleErrors(body, capabilities, decisionMaker) {
    const errors = [];
    if (!PATCH_FIELDS.some((f) => present(body[f]))) {
        errors.push(fieldError('body', `at least one of ${PATCH_FIELDS.join(', ')} is required`));
        for (const f of ['substatus', 'reason'])
            if (present(body[f]))
                errors.push(fieldError(f, `${f} is accepted only with status`));
        return errors;
    }
    if (present(body.status)) {
        if (!present(body.substatus))
            errors.push(fieldError('substatus', 'substatus is required with status'));
        if (!present(body.reason))
            errors.push(fieldError('reason', 'reason is required with status'));
    }
    else {
        for (const f of ['substatus', 'reason'])
            if (present(body[f]))
                errors.push(fieldError(f, `${f} is accepted only with status`));
    }
    for (const f of LIMIT_FIELDS) {
        if (!present(body[f]))
            continue;
        const capability = LIMIT_CAPABILITY[f].patch;
        if (!capabilities[capability])
            errors.push(fieldError(f, `the card does not support ${f} (cardCapabilities.${capability} is false)`));
        if (body.status === 'CLOSED')
            errors.push(fieldError(f, `${f} cannot accompany status CLOSED`));
    }
    if (present(body.fundingSource)) {
        if (body.status === 'CLOSED')
            errors.push(fieldError('fundingSource', 'fundingSource cannot accompany status CLOSED'));
        else if (present(body.status) && decisionMaker === 'ISSUER')
            errors.push(fieldError('fundingSource', 'on this card program the issuer decides authorizations: send fundingSource and status in separate requests'));
    }
    if (present(body.threeDSecurePassword)) {
        if (!capabilities.supports3dSecurePassword)
            errors.push(fieldError('threeDSecurePassword', 'the card does not support a 3-D Secure password (cardCapabilities.supports3dSecurePassword is false)'));
        if (PATCH_FIELDS.some((f) => f !== 'threeDSecurePassword' && present(body[f])))
            errors.push(fieldError('threeDSecurePassword', 'threeDSecurePassword must be sent on its own'));
    }
    return errors;
}
/**
 * The issuance rules that depend on the program: the 3-D Secure password is required (non-blank)
 * where supported and refused where not; a limit only where the program accepts it at issuance.
 */
export function issuanceRuleErrors(body, program) {
    const errors = [];
    const capabilities = program.cardCapabilities;
    if (capabilities.supports3dSecurePassword) {
        const pw = body.threeDSecurePassword;
        if (pw === undefined || (typeof pw === 'string' && !NOT_BLANK.test(pw)))
            errors.push(fieldError('threeDSecurePassword', 'threeDSecurePassword is required (non-blank) on this card program', {
                pattern: NOT_BLANK.source,
            }));
    }
    else if (present(body.threeDSecurePassword)) {
        errors.push(fieldError('threeDSecurePassword', 'cards of this program have no 3-D Secure password (cardCapabilities.supports3dSecurePassword is false)'));
    }
    for (const f of LIMIT_FIELDS) {
        const capability = LIMIT_CAPABILITY[f].issue;
        if (present(body[f]) && !capabilities[capability])
            errors.push(fieldError(f, `${f} cannot be set at issuance on this card program (cardCapabilities.${capability} is false)`));
    }
    return errors;
}
/** Card currency by funding-account currency: USD cards are funded in USD or USDB (1 USDB = 1 USD). */
const CARD_CURRENCY_OF_FUNDING = { USD: 'USD', USDB: 'USD' };
/**
 * Why `account` cannot fund a card of `customerId` (in `cardCurrency` once issued), or null when
 * it can: it must be the cardholder's own internal account in a card-eligible currency.
 */
export function fundingSourceProblem(account, customerId, cardCurrency) {
    if (account === null || account.customerId !== customerId)
        return "fundingSource must be one of the cardholder's own internal accounts";
    const currency = CARD_CURRENCY_OF_FUNDING[account.currency];
    if (currency === undefined || (cardCurrency !== undefined && currency !== cardCurrency))
        return `fundingSource must be in a card-eligible currency (USD or USDB for USD cards), not ${account.currency}`;
    return null;
}
/** The currency of a card funded by an account in `fundingCurrency` (eligible: see fundingSourceProblem). */
export function cardCurrencyOf(fundingCurrency) {
    return CARD_CURRENCY_OF_FUNDING[fundingCurrency];
}
//# sourceMappingURL=card-requests.js.map