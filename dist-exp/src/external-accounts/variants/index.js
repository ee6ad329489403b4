import { fieldError } from '../../errors/field-error.js';
import { ISO_4217_CURRENCIES } from './reference-data.js';
import { ACCOUNT_INFO_RULE, CREATE_ACCOUNT_TYPES, variantFor } from './registry.js';
import { isRecord } from '../../common/objects.js';
import { validateRule } from './validate.js';
export { CREATE_ACCOUNT_TYPES, ACCOUNT_TYPE_ALIASES, canonicalAccountType } from './registry.js';
export { accountIdentity } from './identity.js';
export { renderAccountInfo } from './render.js';
export { exampleAccountInfo, exampleCurrency } from './examples.js';
export { ISO_4217_CURRENCIES } from './reference-data.js';
export { BENEFICIARY_VERIFICATION_STATUSES } from './types.js';
/**
 * Validates a create-request `accountInfo` and returns every FieldError at once (never throws):
 * type errors, missing required members, enum / length / pattern / format violations, unknown
 * members, the beneficiary variant, cross-field rules, and currency consistency.
 */
export function validateAccountInfo(value, opts = {}) {
    const path = opts.path ?? 'accountInfo';
    const errors = [];
    if (value === undefined || value === null) {
        return [fieldError(path, `${path} is required`)];
    }
    validateRule(ACCOUNT_INFO_RULE, value, path, errors);
    if (opts.currency !== undefined && isRecord(value)) {
        const mismatch = currencyError(value.accountType, opts.currency, opts.currencyPath ?? 'currency');
        if (mismatch)
            errors.push(mismatch);
    }
    return errors;
}
/** Currencies an account type can be created in (`ANY_ISO4217` for SWIFT); [] when unknown. */
export function currenciesFor(accountType) {
    const currencies = variantFor(accountType)?.currencies ?? [];
    return currencies === 'ANY_ISO4217' ? currencies : [...currencies];
}
function currencyError(accountType, currency, field) {
    if (typeof accountType !== 'string' || !CREATE_ACCOUNT_TYPES.includes(accountType))
        return undefined;
    const allowed = currenciesFor(accountType);
    const list = allowed === 'ANY_ISO4217' ? ISO_4217_CURRENCIES : allowed;
    if (list.includes(currency))
        return undefined;
    const message = allowed === 'ANY_ISO4217'
        ? `${field} must be an ISO 4217 currency code for ${accountType}`
        : `${field} must be ${list.join(' or ')} for ${accountType}`;
    return fieldError(field, message, { enum: [...list] });
}
export function isWalletType(accountType) {
    return variantFor(accountType)?.family === 'wallet';
}
export function isBankType(accountType) {
    return variantFor(accountType)?.family === 'bank';
}
/**
 * Whether the account is a self-custody crypto wallet (the case where the spec makes
 * `ownershipType` mandatory under counterparty rules). The reference has no custodial wallet
 * type; custody is per account: `vaspName` is "present when the wallet is held at an exchange or
 * other custodial platform; omit it for self-custody wallets". So every wallet type (LIGHTNING
 * included, which the reference does not mark custodial) is self-custody unless the given
 * accountInfo names a VASP.
 */
export function isSelfCustodyWallet(accountType, accountInfo) {
    if (!isWalletType(accountType))
        return false;
    const vasp = accountInfo?.vaspName;
    return !(typeof vasp === 'string' && vasp.trim() !== '');
}
/**
 * The beneficiaryVerificationStatus a new account starts with, per rail:
 * - USD_ACCOUNT (ACH and other US rails): CHECKED_BY_RECEIVING_FI; the spec's own example of
 *   deferring to the receiving institution is ACH.
 * - EUR_ACCOUNT (SEPA Verification of Payee) and GBP_ACCOUNT (UK Confirmation of Payee): PENDING;
 *   these rails offer a name check whose result is not known at creation.
 * - wallets and every other bank rail: UNSUPPORTED (no name-matching service on the rail).
 */
export function initialBeneficiaryVerificationStatus(accountType) {
    return variantFor(accountType)?.verification ?? 'UNSUPPORTED';
}
//# sourceMappingURL=index.js.map