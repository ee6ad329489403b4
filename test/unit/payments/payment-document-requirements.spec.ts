import { loadConfig } from '../../../src/config/app-config.js';
import {
  DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS,
  parsePaymentDocumentRequirements,
} from '../../../src/config/payment-document-requirements.js';
import { missingRequirements } from '../../../src/payment-documents/payment-document.types.js';

describe('PAYMENT_DOCUMENT_REQUIREMENTS', () => {
  it('parses purposes, requirements and alternative types; `none` requires nothing', () => {
    const map = parsePaymentDocumentRequirements(
      'TAX_PAYMENT=TAX_PROOF:TAX_ASSESSMENT,ANY_PROOF:TAX_ASSESSMENT|INVOICE',
    );
    expect(map.get('TAX_PAYMENT')).toEqual([
      { id: 'TAX_PROOF', acceptedTypes: ['TAX_ASSESSMENT'] },
      { id: 'ANY_PROOF', acceptedTypes: ['TAX_ASSESSMENT', 'INVOICE'] },
    ]);
    expect(parsePaymentDocumentRequirements('none').size).toBe(0);
    expect(loadConfig({ PAYMENT_DOCUMENT_REQUIREMENTS: 'none' }).paymentDocumentRequirements.size).toBe(0);
    expect([...parsePaymentDocumentRequirements(DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS).keys()]).toEqual([
      'GOODS_OR_SERVICES',
      'REAL_ESTATE_PURCHASE',
      'EDUCATION',
    ]);
  });

  it('refuses a malformed value, an unknown type and a name given twice, at config load', () => {
    for (const bad of [
      'GIFT',
      'GIFT=X',
      'GIFT=X:NOT_A_TYPE',
      'GIFT=X:INVOICE;GIFT=Y:INVOICE',
      'GIFT=X:INVOICE,X:CONTRACT',
      'gift=X:INVOICE',
    ]) {
      expect(() => parsePaymentDocumentRequirements(bad)).toThrow();
      expect(() => loadConfig({ PAYMENT_DOCUMENT_REQUIREMENTS: bad })).toThrow(/PAYMENT_DOCUMENT_REQUIREMENTS/);
    }
    expect(
      loadConfig({ PAYMENT_DOCUMENT_REQUIREMENTS: 'GIFT=X:INVOICE' }).paymentDocumentRequirements.get('GIFT'),
    ).toEqual([{ id: 'X', acceptedTypes: ['INVOICE'] }]);
  });

  it('one document fills one requirement, matched so that alternatives leave room for the others', () => {
    const reqs = [
      { id: 'ANY_PROOF', acceptedTypes: ['TAX_ASSESSMENT', 'INVOICE'] },
      { id: 'TAX_PROOF', acceptedTypes: ['TAX_ASSESSMENT'] },
    ];
    expect(missingRequirements(reqs, ['TAX_ASSESSMENT', 'INVOICE'])).toEqual([]);
    expect(missingRequirements(reqs, ['TAX_ASSESSMENT'])).toHaveLength(1); // one document, two requirements
    expect(missingRequirements(reqs, ['INVOICE', 'INVOICE'])).toEqual(['TAX_PROOF']);
    expect(missingRequirements(reqs, ['TAX_ASSESSMENT', 'TAX_ASSESSMENT'])).toEqual([]);
    expect(missingRequirements(reqs, [])).toEqual(['ANY_PROOF', 'TAX_PROOF']);
    expect(missingRequirements([], ['OTHER'])).toEqual([]);
  });
});
