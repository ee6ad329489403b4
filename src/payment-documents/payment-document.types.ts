import type { PaymentDocumentRequirement } from '../config/payment-document-requirements.js';

/**
 * The requirements the documents (their types) leave unfilled. One document fills one requirement;
 * a requirement that accepts alternatives takes any of them. Decided as a bipartite matching
 * (augmenting paths), so an INVOICE is kept for the requirement that needs it when another type
 * can fill the other one.
 */
export function missingRequirements(
  requirements: readonly PaymentDocumentRequirement[],
  documentTypes: readonly string[],
): string[] {
  const owner: Array<number | null> = documentTypes.map(() => null);
  const assign = (r: number, seen: Set<number>): boolean => {
    for (let d = 0; d < documentTypes.length; d++) {
      if (seen.has(d) || !requirements[r].acceptedTypes.includes(documentTypes[d])) continue;
      seen.add(d);
      const current = owner[d];
      if (current === null || assign(current, seen)) {
        owner[d] = r;
        return true;
      }
    }
    return false;
  };
  return requirements.filter((_, r) => !assign(r, new Set())).map((r) => r.id);
}
