import { isRecord } from '../../common/objects.js';
import { canonicalAccountType, variantFor } from './registry.js';
/**
 * The response `accountInfo` (reference `ExternalAccountInfoOneOf` / `*ExternalAccountInfo`) for a
 * stored create `accountInfo`:
 * - `accountType` canonical (a stored `LIGHTNING_ACCOUNT` is rendered as `LIGHTNING`);
 * - bank variants get the required `paymentRails` (a stored list is kept, otherwise the rails the
 *   reference's `*AccountInfo` lists for the type, narrowed by the members present for the
 *   bank-transfer-or-mobile-money and INR corridors);
 * - members are the variant's own (null / absent members dropped; `platformAccountId`, which
 *   the spec's USD example sends inside accountInfo, is not a response member: it is the top-level
 *   `ExternalAccount.platformAccountId`);
 * - account numbers are NOT masked: every reference example (request bodies, webhook payloads,
 *   payment instructions) carries full account numbers and addresses.
 */
export function renderAccountInfo(stored) {
    const variant = variantFor(stored.accountType);
    if (!variant) {
        const copy = clean(stored);
        delete copy.platformAccountId;
        if (typeof stored.accountType === 'string')
            copy.accountType = canonicalAccountType(stored.accountType);
        return copy;
    }
    const out = { accountType: variant.accountType };
    if (variant.paymentRails) {
        const storedRails = stored.paymentRails;
        out.paymentRails =
            Array.isArray(storedRails) && storedRails.every((r) => typeof r === 'string')
                ? [...storedRails]
                : variant.paymentRails(stored);
    }
    for (const key of Object.keys(variant.rule.fields)) {
        if (key === 'accountType' || key === 'platformAccountId')
            continue;
        const value = clean(stored[key]);
        if (value !== undefined)
            out[key] = value;
    }
    return out;
}
/** Deep copy of plain JSON data without null / undefined members. */
function clean(value) {
    if (value === null || value === undefined)
        return undefined;
    if (Array.isArray(value))
        return value.map(clean).filter((v) => v !== undefined);
    if (isRecord(value)) {
        const out = {};
        for (const [key, member] of Object.entries(value)) {
            const copy = clean(member);
            if (copy !== undefined)
                out[key] = copy;
        }
        return out;
    }
    return value;
}
//# sourceMappingURL=render.js.map