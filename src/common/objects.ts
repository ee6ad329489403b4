/** A JSON object (not null, not an array). The one `isRecord`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface MergePatchOptions {
  /** `null` stores null (the shape keeps the member) instead of removing the member. */
  keepNulls?: boolean;
  /** Members merged member by member (the same rules) when both sides are objects. */
  nested?: readonly string[];
  /** Members of the patch that are not part of `current` (e.g. top-level columns). */
  skip?: ReadonlySet<string>;
}

/**
 * The one PATCH-merge: an omitted (undefined) member stays, `null` clears it, a value replaces it
 * (arrays and non-nested objects are replaced whole).
 */
export function mergePatch<T extends object>(current: T, patch: object, options: MergePatchOptions = {}): T {
  const out: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || options.skip?.has(key)) continue;
    if (value === null) {
      if (options.keepNulls) out[key] = null;
      else delete out[key];
    } else if (options.nested?.includes(key) && isRecord(value)) {
      out[key] = mergePatch(isRecord(out[key]) ? out[key] : {}, value, { keepNulls: options.keepNulls });
    } else out[key] = value;
  }
  return out as T;
}
