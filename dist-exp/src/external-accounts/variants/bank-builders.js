import { object, oneOf, required, text } from './dsl.js';
import { bankBeneficiary, business, exampleIndividual, individual, } from './beneficiaries.js';
import { phone, PHONE_INTL, PLATFORM_ACCOUNT_ID, PROVIDER } from './field-rules.js';
import { isPresent } from './validate.js';
export function bank(accountType, o) {
    const currencies = o.currencies ?? [accountType.slice(0, 3)];
    const rails = o.rails;
    return {
        accountType,
        family: 'bank',
        currencies,
        rule: object({
            accountType: required(oneOf([accountType])),
            ...o.fields,
            platformAccountId: PLATFORM_ACCOUNT_ID,
            beneficiary: bankBeneficiary(individual(o.individual), business(o.business)),
        }, o.groups),
        identity: o.identity,
        paymentRails: typeof rails === 'function' ? rails : () => [...rails],
        verification: o.verification ?? 'UNSUPPORTED',
        example: { accountType, ...o.example, beneficiary: exampleIndividual(o.country) },
        exampleCurrency: o.exampleCurrency ?? (currencies === 'ANY_ISO4217' ? 'USD' : currencies[0]),
    };
}
/** Rails of the "bank transfer or mobile money" corridors, from the members supplied. */
export function bankOrMobile(...bankMembers) {
    return (info) => [
        ...(bankMembers.some((k) => isPresent(info[k])) ? ['BANK_TRANSFER'] : []),
        ...(isPresent(info.phoneNumber) ? ['MOBILE_MONEY'] : []),
    ];
}
export const BT = ['BANK_TRANSFER'];
export const MM = ['MOBILE_MONEY'];
export const SEPA = ['SEPA', 'SEPA_INSTANT'];
export const BY_REG_AND_TAX = { require: ['registrationNumber', 'taxId'] };
export function mobileMoney(accountType, o) {
    const regions = o.regions;
    return bank(accountType, {
        country: o.country,
        fields: {
            phoneNumber: required(o.phone ? phone(o.phone.pattern) : PHONE_INTL),
            provider: required(PROVIDER),
            ...(regions
                ? { region: required(text({ enum: regions, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' })) }
                : {}),
        },
        business: BY_REG_AND_TAX,
        rails: MM,
        identity: { provider: 'text', phoneNumber: 'phone' },
        example: {
            phoneNumber: o.phone?.example ?? '+1234567890',
            provider: 'Example Provider',
            ...(regions ? { region: regions[0] } : {}),
        },
    });
}
/** Bank account + SWIFT/BIC corridors (HKD, IDR, MYR, SGD, THB, VND). */
export const SWIFT_BANK_IDENTITY = { swiftCode: 'bic', accountNumber: 'alnum' };
//# sourceMappingURL=bank-builders.js.map