/**
 * PAYMENT_DOCUMENT_REQUIREMENTS, the setting, and its vocabulary: config parses it into these types at
 * load (the payment-documents area reads `AppConfig.paymentDocumentRequirements` and matches documents
 * against it, `missingRequirements`).
 *
 * What a payment document is (its declared type). The reference in hand names `PaymentDocumentType`
 * without listing it, so this list is ours: the types the requirements below accept, and OTHER.
 */
export const PAYMENT_DOCUMENT_TYPES = [
  'INVOICE',
  'PURCHASE_ORDER',
  'DELIVERY_SLIP',
  'CONTRACT',
  'SALE_AGREEMENT',
  'BANK_STATEMENT',
  'PROOF_OF_ENROLLMENT',
  'MEDICAL_INVOICE',
  'TAX_ASSESSMENT',
  'LOAN_AGREEMENT',
  'PAYSLIP',
  'OTHER',
] as const;
export type PaymentDocumentType = (typeof PAYMENT_DOCUMENT_TYPES)[number];

/** One required document of a purpose: an opaque id, and the document types that fill it (alternatives). */
export interface PaymentDocumentRequirement {
  id: string;
  acceptedTypes: readonly string[];
}

/** purposeOfPayment -> its requirements, in configured order. */
export type PaymentDocumentRequirements = ReadonlyMap<string, readonly PaymentDocumentRequirement[]>;

/**
 * The default of PAYMENT_DOCUMENT_REQUIREMENTS: `PURPOSE=REQUIREMENT:TYPE|TYPE,REQUIREMENT:TYPE;...`.
 * A purpose not named requires no document.
 */
export const DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS = [
  'GOODS_OR_SERVICES=SUPPORTING_PROOF:INVOICE|PURCHASE_ORDER|DELIVERY_SLIP',
  'REAL_ESTATE_PURCHASE=SALE_AGREEMENT:SALE_AGREEMENT|CONTRACT,PROOF_OF_FUNDS:BANK_STATEMENT',
  'EDUCATION=ENROLLMENT_PROOF:PROOF_OF_ENROLLMENT|INVOICE',
].join(';');

const NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * Parses PAYMENT_DOCUMENT_REQUIREMENTS. Purposes are separated by `;`, a purpose's requirements by
 * `,`, a requirement's accepted types by `|`; `none`: no purpose requires a document. Throws with the reason on a malformed value, a type
 * that is not a PaymentDocumentType, or a purpose or requirement named twice.
 */
export function parsePaymentDocumentRequirements(value: string): PaymentDocumentRequirements {
  const map = new Map<string, PaymentDocumentRequirement[]>();
  const text = value.trim();
  if (text === '' || text === 'none') return map;
  for (const entry of text.split(';')) {
    const [purpose, list, ...rest] = entry.trim().split('=');
    if (!purpose || !NAME.test(purpose) || list === undefined || rest.length)
      throw new Error(`"${entry}": expected PURPOSE=REQUIREMENT:TYPE|TYPE,...`);
    if (map.has(purpose)) throw new Error(`purpose ${purpose} is named twice`);
    const requirements: PaymentDocumentRequirement[] = [];
    for (const item of list.split(',')) {
      const [id, types, ...more] = item.trim().split(':');
      if (!id || !NAME.test(id) || !types || more.length)
        throw new Error(`"${item}" (purpose ${purpose}): expected REQUIREMENT:TYPE|TYPE`);
      if (requirements.some((r) => r.id === id)) throw new Error(`requirement ${id} of ${purpose} is named twice`);
      const acceptedTypes = types.split('|').map((t) => t.trim());
      for (const type of acceptedTypes)
        if (!(PAYMENT_DOCUMENT_TYPES as readonly string[]).includes(type))
          throw new Error(
            `${type} (requirement ${id} of ${purpose}) is not one of ${PAYMENT_DOCUMENT_TYPES.join(', ')}`,
          );
      requirements.push({ id, acceptedTypes });
    }
    map.set(purpose, requirements);
  }
  return map;
}

/** The reason PAYMENT_DOCUMENT_REQUIREMENTS does not parse, or null. */
export function paymentDocumentRequirementsProblem(value: string): string | null {
  try {
    parsePaymentDocumentRequirements(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
