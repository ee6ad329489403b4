/** A JSON object (not null, not an array). The one `isRecord`. */
export function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/**
 * The one PATCH-merge: an omitted (undefined) member stays, `null` clears it, a value replaces it
 * (arrays and non-nested objects are replaced whole).
 */
export function mergePatch(current, patch, options = {}) {
    const out = { ...current };
    for (const [key, value] of Object.entries(patch)) {
        if (value === undefined || options.skip?.has(key))
            continue;
        if (value === null) {
            if (options.keepNulls)
                out[key] = null;
            else
                delete out[key];
        }
        else if (options.nested?.includes(key) && isRecord(value)) {
            out[key] = mergePatch(isRecord(out[key]) ? out[key] : {}, value, { keepNulls: options.keepNulls });
        }
        else
            out[key] = value;
    }
    return out;
}
//# sourceMappingURL=objects.js.map