import { getMetadataStorage } from 'class-validator';
import { isRecord, mergePatch } from '../common/objects.js';
import { bodyNotAnObject, validateBody } from '../common/validate-body.js';
import { fieldError } from '../errors/field-error.js';
import { BusinessCustomerCreateRequest, BusinessCustomerUpdateRequest, CustomerCreateRequest, CustomerUpdateRequest, IndividualCustomerCreateRequest, IndividualCustomerUpdateRequest, } from './customer.dto.js';
function propertiesOf(cls) {
    return new Set(getMetadataStorage()
        .getTargetValidationMetadatas(cls, '', true, false)
        .map((m) => m.propertyName));
}
function parseVariant(body, base, variants) {
    if (!isRecord(body))
        return { errors: [bodyNotAnObject()] };
    const tag = body.customerType;
    const cls = typeof tag === 'string' && Object.hasOwn(variants, tag) ? variants[tag] : undefined;
    if (cls)
        return validateBody(cls, body);
    const { errors } = validateBody(base, body, { forbidNonWhitelisted: false });
    const known = new Set(Object.values(variants).flatMap((v) => [...propertiesOf(v)]));
    for (const key of Object.keys(body))
        if (!known.has(key))
            errors.push(fieldError(key, 'unknown field'));
    return { errors };
}
export function parseCustomerCreate(body) {
    return parseVariant(body, CustomerCreateRequest, {
        INDIVIDUAL: IndividualCustomerCreateRequest,
        BUSINESS: BusinessCustomerCreateRequest,
    });
}
export function parseCustomerUpdate(body) {
    return parseVariant(body, CustomerUpdateRequest, {
        INDIVIDUAL: IndividualCustomerUpdateRequest,
        BUSINESS: BusinessCustomerUpdateRequest,
    });
}
/** Members of the top level that are not stored in the profile document. */
const TOP_LEVEL = new Set([
    'customerType',
    'platformCustomerId',
    'region',
    'currencies',
    'email',
    'phoneNumber',
    'umaAddress',
    'endUserTermsConsent',
    'identifier',
    'kycStatus',
    'kybStatus',
]);
/** Plain JSON copy of a validated DTO, without members left undefined. */
export function plain(value) {
    return JSON.parse(JSON.stringify(value));
}
/** The profile members of a validated body (variant fields only), as plain JSON. */
export function profileOf(body) {
    return Object.fromEntries(Object.entries(plain(body)).filter(([key]) => !TOP_LEVEL.has(key)));
}
/**
 * Applies a PATCH to a profile: a member given replaces the stored one, `null` removes it,
 * an omitted member stays. `businessInfo` is merged member by member the same way.
 */
export function mergeProfile(current, patch) {
    return mergePatch(current, patch, { skip: TOP_LEVEL, nested: ['businessInfo'] });
}
function asRecord(value) {
    return isRecord(value) ? value : {};
}
/**
 * Rules that span members, checked on the customer as it will be stored (after a PATCH is
 * applied), so a PATCH cannot leave it inconsistent: an `OTHER` choice needs its description;
 * an `identifier` needs `idType` SSN or ITIN (the only identifications the reference accepts).
 */
export function crossFieldErrors(type, profile, identifier) {
    const errors = [];
    const otherNeedsText = (scope, path, list, single, describe) => {
        const selected = single ? scope[single] === 'OTHER' : Array.isArray(scope[list]) && scope[list].includes('OTHER');
        if (selected && (typeof scope[describe] !== 'string' || scope[describe] === ''))
            errors.push(fieldError(`${path}${describe}`, `${describe} is required when ${single ?? list} ${single ? 'is' : 'includes'} OTHER`));
    };
    if (type === 'INDIVIDUAL') {
        otherNeedsText(profile, '', 'sourceOfFundsCategories', null, 'sourceOfFundsOtherDescription');
        otherNeedsText(profile, '', 'sourceOfWealthCategories', null, 'sourceOfWealthOtherDescription');
        otherNeedsText(profile, '', '', 'purposeOfAccount', 'purposeOfAccountOtherDescription');
        if (identifier !== null) {
            const idType = profile.idType;
            if (idType !== 'SSN' && idType !== 'ITIN')
                errors.push(fieldError('idType', 'identifier needs idType SSN or ITIN (the only identifications accepted)', {
                    enum: ['SSN', 'ITIN'],
                }));
            else if (idType === 'ITIN' && !identifier.startsWith('9'))
                errors.push(fieldError('identifier', 'an ITIN starts with 9'));
        }
    }
    else {
        const info = asRecord(profile.businessInfo);
        otherNeedsText(info, 'businessInfo.', 'sourceOfFundsCategories', null, 'sourceOfFundsOtherDescription');
        otherNeedsText(info, 'businessInfo.', '', 'purposeOfAccount', 'purposeOfAccountOtherDescription');
    }
    return errors;
}
//# sourceMappingURL=customer-body.js.map