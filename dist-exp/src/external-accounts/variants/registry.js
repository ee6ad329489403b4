import { union } from './dsl.js';
import { BANK_VARIANTS } from './bank-variants.js';
import { WALLET_VARIANTS } from './wallet-variants.js';
/** All 49 create variants, in the spec's order (40 bank types, then 9 wallet types). */
export const VARIANTS = [...BANK_VARIANTS, ...WALLET_VARIANTS];
export const CREATE_ACCOUNT_TYPES = Object.freeze(VARIANTS.map((v) => v.accountType));
/** Spec: "In responses, LIGHTNING_ACCOUNT is also accepted as an alias of the LIGHTNING variant". */
export const ACCOUNT_TYPE_ALIASES = { LIGHTNING_ACCOUNT: 'LIGHTNING' };
const BY_TYPE = new Map(VARIANTS.map((v) => [v.accountType, v]));
/** Canonical accountType (resolves the LIGHTNING_ACCOUNT alias). */
export function canonicalAccountType(accountType) {
    return Object.hasOwn(ACCOUNT_TYPE_ALIASES, accountType)
        ? (ACCOUNT_TYPE_ALIASES[accountType] ?? accountType)
        : accountType;
}
/** The definition of an accountType (aliases resolved), or undefined when unknown. */
export function variantFor(accountType) {
    return typeof accountType === 'string' ? BY_TYPE.get(canonicalAccountType(accountType)) : undefined;
}
/** The whole create `accountInfo` as one discriminated rule. */
export const ACCOUNT_INFO_RULE = {
    ...union('accountType', Object.fromEntries(VARIANTS.map((v) => [v.accountType, v.rule]))),
    required: true,
};
//# sourceMappingURL=registry.js.map