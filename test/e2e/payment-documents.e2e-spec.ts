import { newIndividual, newPaymentDocument, samplePdf, uploadPaymentDocument } from '../support/documents.js';
import { payer, platformQuote, type Json } from '../support/payments.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Payment documents on quotes (issue #32): `POST /payment-documents` (this service's route, the
 * reference has none), a purpose of payment's requirements (PAYMENT_DOCUMENT_REQUIREMENTS, here the
 * default), 400 DOCUMENTS_REQUIRED with `details.missingRequirements`, a quote that goes through
 * with `documentIds`, and 409 PAYMENT_DOCUMENT_ALREADY_USED, also when quotes race for a document.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PAYMENT_DOCUMENT_ID = /^PaymentDocument:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A funded payer and `quote(extra)`: POST /quotes of 1,000 to its external account, answered as sent. */
async function setup() {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 100_000);
  const quote = (extra: Record<string, unknown>) =>
    p.post('/quotes', platformQuote(a.accountId, a.externalAccountId, 1_000, extra));
  return { p, a, quote };
}

describe('POST /payment-documents', () => {
  it('stores a payment document (PaymentDocument id, type from the bytes) and GET and the download answer it', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const res = await uploadPaymentDocument(
      p,
      { customerId: c.id, documentType: 'INVOICE' },
      samplePdf(),
      '../inv.png',
    );
    expect(res.status).toBe(201);
    const body = res.body as Json;
    expect(body).toEqual({
      id: expect.stringMatching(PAYMENT_DOCUMENT_ID),
      customerId: c.id,
      documentType: 'INVOICE',
      fileName: 'inv.png',
      contentType: 'application/pdf',
      fileSize: samplePdf().length,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await p.get(`/payment-documents/${body.id as string}`).expect(200)).body).toEqual(body);
    const file = await p
      .get(`/payment-documents/${body.id as string}/file`)
      .buffer(true)
      .expect(200);
    expect(file.headers['content-type']).toBe('application/octet-stream');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="inv.png"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(file.body as Buffer).equals(samplePdf())).toBe(true);
    // A payment document is not a verification document.
    expectError(
      await p.get(`/documents/${(body.id as string).replace('PaymentDocument:', 'Document:')}`),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses every invalid field at once (not a PDF/JPEG/PNG, an unknown type, no customer); another platform’s is 404', async () => {
    const p = await TestPlatform.create(t);
    const res = await uploadPaymentDocument(p, { documentType: 'RECEIPT_OF_SORTS' }, Buffer.from('<html>hi</html>'));
    expect(invalidFields(res)).toEqual(['customerId', 'documentType', 'file']);
    const c = await newIndividual(p);
    const doc = await newPaymentDocument(p, c.id);
    const other = await TestPlatform.create(t);
    expectError(await other.get(`/payment-documents/${doc.id}`), 404, 'PAYMENT_DOCUMENT_NOT_FOUND');
    expectError(await other.delete(`/payment-documents/${doc.id}`), 404, 'PAYMENT_DOCUMENT_NOT_FOUND');
    expectError(
      await uploadPaymentDocument(other, { customerId: c.id, documentType: 'INVOICE' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expect((await p.delete(`/payment-documents/${doc.id}`)).status).toBe(204);
    expectError(await p.get(`/payment-documents/${doc.id}`), 404, 'PAYMENT_DOCUMENT_NOT_FOUND');
  });
});

describe('POST /quotes with a purposeOfPayment that requires documents', () => {
  it('400 DOCUMENTS_REQUIRED names the missing requirements; with documentIds the quote goes through and the document is used', async () => {
    const { p, a, quote } = await setup();
    const missing = expectError(await quote({ purposeOfPayment: 'GOODS_OR_SERVICES' }), 400, 'DOCUMENTS_REQUIRED');
    expect(missing.details).toEqual({ missingRequirements: ['SUPPORTING_PROOF'] });
    // A requirement accepts alternatives: a delivery slip fills SUPPORTING_PROOF.
    const slip = await newPaymentDocument(p, a.customer.id, 'DELIVERY_SLIP');
    const ok = await quote({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [slip.id] });
    expect(ok.status).toBe(201);
    const q = ok.body as Json;
    expect(q).toMatchObject({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [slip.id] });
    expect((await p.get(`/quotes/${q.id as string}`).expect(200)).body).toMatchObject({ documentIds: [slip.id] });
    expect((await p.get(`/payment-documents/${slip.id}`).expect(200)).body).toMatchObject({ quoteId: q.id });
    // Used: on another quote it is 409, and it cannot be deleted.
    const again = expectError(
      await quote({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [slip.id] }),
      409,
      'PAYMENT_DOCUMENT_ALREADY_USED',
    );
    expect(again.details).toEqual({ documentId: slip.id, quoteId: q.id });
    expectError(await p.delete(`/payment-documents/${slip.id}`), 409, 'PAYMENT_DOCUMENT_ALREADY_USED');
    // The quote executes as any other.
    expect((await a.execute(q.id as string)).status).toMatch(/PROCESSING|COMPLETED/);
  });

  it('each requirement needs its own document; a purpose without requirements needs none', async () => {
    const { p, a, quote } = await setup();
    const funds = await newPaymentDocument(p, a.customer.id, 'BANK_STATEMENT');
    const partial = expectError(
      await quote({ purposeOfPayment: 'REAL_ESTATE_PURCHASE', documentIds: [funds.id] }),
      400,
      'DOCUMENTS_REQUIRED',
    );
    expect(partial.details).toEqual({ missingRequirements: ['SALE_AGREEMENT'] });
    expect(
      (
        expectError(await quote({ purposeOfPayment: 'REAL_ESTATE_PURCHASE' }), 400, 'DOCUMENTS_REQUIRED')
          .details as Json
      ).missingRequirements,
    ).toEqual(['SALE_AGREEMENT', 'PROOF_OF_FUNDS']);
    // The refused quote attached nothing: the document is still free.
    expect((await p.get(`/payment-documents/${funds.id}`).expect(200)).body).not.toHaveProperty('quoteId');
    const contract = await newPaymentDocument(p, a.customer.id, 'CONTRACT');
    const ok = await quote({ purposeOfPayment: 'REAL_ESTATE_PURCHASE', documentIds: [contract.id, funds.id] });
    expect(ok.status).toBe(201);
    expect((ok.body as Json).documentIds).toEqual([contract.id, funds.id]);
    const gift = await quote({ purposeOfPayment: 'GIFT' });
    expect(gift.status).toBe(201);
    expect(gift.body as Json).not.toHaveProperty('documentIds');
  });

  it('an unknown or another platform’s document is 404, another customer’s is 400, a malformed id is 400', async () => {
    const { p, quote } = await setup();
    const other = await TestPlatform.create(t);
    const foreign = await newPaymentDocument(other, (await newIndividual(other)).id);
    const unknown = 'PaymentDocument:01954300-0000-7000-8000-000000000000';
    for (const id of [foreign.id, unknown]) {
      const res = expectError(
        await quote({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [id] }),
        404,
        'PAYMENT_DOCUMENT_NOT_FOUND',
      );
      expect(res.details).toEqual({ documentId: id });
    }
    const stranger = await newPaymentDocument(p, (await newIndividual(p)).id);
    expect(invalidFields(await quote({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [stranger.id] }))).toEqual([
      'documentIds[0]',
    ]);
    expect(invalidFields(await quote({ documentIds: ['Document:01954300-0000-7000-8000-000000000000'] }))).toEqual([
      'documentIds',
    ]);
  });

  it('quotes racing for one document: exactly one wins, the others are 409 PAYMENT_DOCUMENT_ALREADY_USED', async () => {
    const { p, a, quote } = await setup();
    for (let round = 0; round < 3; round++) {
      const doc = await newPaymentDocument(p, a.customer.id, 'INVOICE');
      const results = await Promise.all(
        Array.from({ length: 4 }, () => quote({ purposeOfPayment: 'GOODS_OR_SERVICES', documentIds: [doc.id] })),
      );
      const won = results.filter((r) => r.status === 201);
      expect(won).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'PAYMENT_DOCUMENT_ALREADY_USED');
      const winner = (won[0].body as Json).id as string;
      expect((await p.get(`/payment-documents/${doc.id}`).expect(200)).body).toMatchObject({ quoteId: winner });
    }
  }, 120_000);
});
