import { object, oneOf, required, text, union } from './dsl.js';
import { ADDRESS, BIRTH_DATE, CONTACT_PHONE, COUNTRY, EMAIL, IDENTIFIER_100, NAME } from './field-rules.js';
/**
 * Beneficiary shapes. Per the reference every currency has an INDIVIDUAL and a BUSINESS shape
 * built from the same members; they differ only in which members are required (and a few extra
 * members for CAD / COP individuals, COP's shorter taxId). So a shape is "base + required list".
 */
const INDIVIDUAL_FIELDS = {
    beneficiaryType: required(oneOf(['INDIVIDUAL'])),
    fullName: required(NAME),
    birthDate: BIRTH_DATE,
    nationality: COUNTRY,
    email: EMAIL,
    phoneNumber: CONTACT_PHONE,
    countryOfResidence: COUNTRY,
    address: ADDRESS,
};
const BUSINESS_FIELDS = {
    beneficiaryType: required(oneOf(['BUSINESS'])),
    legalName: required(NAME),
    registrationNumber: IDENTIFIER_100,
    taxId: IDENTIFIER_100,
    email: EMAIL,
    phoneNumber: CONTACT_PHONE,
    countryOfResidence: COUNTRY,
    address: ADDRESS,
};
function shape(base, opts) {
    const fields = { ...base, ...opts.extra };
    for (const key of opts.require ?? []) {
        const rule = fields[key];
        if (rule)
            fields[key] = required(rule);
    }
    return object(fields);
}
export function individual(opts = {}) {
    return shape(INDIVIDUAL_FIELDS, opts);
}
export function business(opts = {}) {
    return shape(BUSINESS_FIELDS, opts);
}
/** The required `beneficiary` of a bank variant. */
export function bankBeneficiary(ind, bus) {
    return required(union('beneficiaryType', { INDIVIDUAL: ind, BUSINESS: bus }));
}
/** Reference `WalletBeneficiaryOneOf`: optional; individual = name + country of residence only. */
export const WALLET_BENEFICIARY = union('beneficiaryType', {
    INDIVIDUAL: object({
        beneficiaryType: required(oneOf(['INDIVIDUAL'])),
        fullName: required(NAME),
        countryOfResidence: required(COUNTRY),
    }),
    BUSINESS: business(),
});
/** COP individuals carry an identity document (reference CopBeneficiary). */
export const COP_DOCUMENT_FIELDS = {
    documentType: oneOf(['CC', 'CE', 'TI', 'NIT', 'PP']),
    documentNumber: text({ minLength: 1, maxLength: 50 }),
};
/** A beneficiary that satisfies every bank variant's individual shape (used by examples). */
export function exampleIndividual(country) {
    return {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Jane Doe',
        birthDate: '1990-01-15',
        nationality: country,
        email: 'jane.doe@example.com',
        phoneNumber: '+15555550123',
        countryOfResidence: country,
        address: {
            line1: '1 Example Street',
            city: 'Example City',
            postalCode: '10001',
            country,
        },
    };
}
/** A business beneficiary satisfying every bank variant's business shape. */
export function exampleBusiness(country) {
    return {
        beneficiaryType: 'BUSINESS',
        legalName: 'Example Trading Ltd',
        registrationNumber: 'REG-123456',
        taxId: 'TAX-987654',
        countryOfResidence: country,
        address: { line1: '2 Commerce Road', city: 'Example City', postalCode: '10002', country },
    };
}
//# sourceMappingURL=beneficiaries.js.map