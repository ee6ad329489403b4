import { DataSource } from 'typeorm';
import { newBusiness, newDocument, newIndividual, ownerBody } from '../support/documents.js';
import { recordedEvents } from '../support/events.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface VerificationBody {
  id: string;
  customerId: string;
  verificationStatus: string;
  errors: Array<{
    resourceId: string;
    type: string;
    field?: string;
    rejectionCode?: string;
    acceptedDocumentTypes?: string[];
  }>;
}

const submit = async (p: TestPlatform, customerId: string) => {
  const res = await p.post('/verifications', { customerId });
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as VerificationBody;
};

/** A business with everything KYB needs: a control person and all documents. */
async function readyBusiness(p: TestPlatform) {
  const b = await newBusiness(p);
  const owner = (await p.post('/beneficial-owners', ownerBody(b.id))).body as { id: string };
  const docs = [
    await newDocument(p, b.id, 'CERTIFICATE_OF_INCORPORATION'),
    await newDocument(p, b.id, 'SHAREHOLDER_REGISTER'),
    await newDocument(p, b.id, 'UTILITY_BILL'),
    await newDocument(p, owner.id, 'PASSPORT'),
  ];
  return { b, owner, docs };
}

describe('/beneficial-owners', () => {
  it('creates, lists, reads and updates a beneficial owner; the identifier is sealed at rest and answered masked', async () => {
    const p = await TestPlatform.create(t);
    const b = await newBusiness(p);
    const res = await p.post('/beneficial-owners', ownerBody(b.id));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: b.id,
      roles: ['UBO', 'CONTROL_PERSON'],
      ownershipPercentage: 51,
      kycStatus: 'UNVERIFIED',
      personalInfo: { firstName: 'Jane', lastName: 'Smith', idType: 'SSN', identifier: '*******6789' },
    });
    const id = (res.body as { id: string }).id;
    const [stored] = await t.app
      .get(DataSource)
      .query<Array<{ identifier: string; personal_info: unknown }>>(
        'SELECT identifier, personal_info FROM beneficial_owners WHERE id = $1',
        [id.split(':')[1]],
      );
    expect(stored.identifier).toMatch(/^v2\./);
    expect(JSON.stringify(stored)).not.toContain('6789');

    expect((await p.get(`/beneficial-owners/${id}`)).body).toEqual(res.body);
    const list = await p.get(`/beneficial-owners?customerId=${encodeURIComponent(b.id)}`);
    expect(list.body).toMatchObject({ data: [res.body], hasMore: false, totalCount: 1 });

    const patched = await p.patch(`/beneficial-owners/${id}`, {
      ownershipPercentage: 30,
      personalInfo: { middleName: 'Marie', identifier: '987-65-4321' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      ownershipPercentage: 30,
      personalInfo: { firstName: 'Jane', middleName: 'Marie', identifier: '*******4321' },
    });
  });

  it('refuses an individual customer, invalid fields (all at once), and is 404 across platforms', async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const ind = await newIndividual(p);
    expect(invalidFields(await p.post('/beneficial-owners', ownerBody(ind.id)))).toEqual(['customerId']);
    const b = await newBusiness(p);
    const bad = ownerBody(b.id, { roles: ['KING'], ownershipPercentage: 101 });
    expect(invalidFields(await p.post('/beneficial-owners', { ...bad, personalInfo: { firstName: 'J' } }))).toEqual([
      'ownershipPercentage',
      'personalInfo.address',
      'personalInfo.birthDate',
      'personalInfo.idType',
      'personalInfo.identifier',
      'personalInfo.lastName',
      'personalInfo.nationality',
      'roles',
    ]);
    const owner = (await p.post('/beneficial-owners', ownerBody(b.id))).body as { id: string };
    expectError(await other.get(`/beneficial-owners/${owner.id}`), 404, 'NOT_FOUND');
    expectError(await other.patch(`/beneficial-owners/${owner.id}`, { ownershipPercentage: 1 }), 404, 'NOT_FOUND');
    expectError(await other.post('/beneficial-owners', ownerBody(b.id)), 404, 'CUSTOMER_NOT_FOUND');
    expect((await other.get(`/beneficial-owners?customerId=${encodeURIComponent(b.id)}`)).body).toMatchObject({
      data: [],
      totalCount: 0,
    });
  });
});

describe('/verifications', () => {
  it('answers RESOLVE_ERRORS with everything a business lacks, and VERIFICATION.RESOLVE_ERRORS', async () => {
    const p = await TestPlatform.create(t);
    const b = await newBusiness(p);
    const v = await submit(p, b.id);
    expect(v.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(v.errors.map((e) => e.type).sort()).toEqual([
      'MISSING_BENEFICIAL_OWNER',
      'MISSING_CONTROL_PERSON',
      'MISSING_LEGAL_PRESENCE_DOCUMENT',
      'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    expect(v.errors.find((e) => e.type === 'MISSING_PROOF_OF_ADDRESS_DOCUMENT')).toMatchObject({
      resourceId: b.id,
      acceptedDocumentTypes: expect.arrayContaining(['UTILITY_BILL', 'BANK_STATEMENT']),
    });
    expect((await p.get(`/verifications/${v.id}`)).body).toEqual(v);
    const events = await recordedEvents(p, 'VERIFICATION.RESOLVE_ERRORS');
    expect(events.map((e) => e.data)).toEqual([v]);
    // a beneficial owner without an identity document is named
    const owner = (await p.post('/beneficial-owners', ownerBody(b.id))).body as { id: string };
    const again = await submit(p, b.id);
    expect(again.errors).toContainEqual(
      expect.objectContaining({ resourceId: owner.id, type: 'MISSING_IDENTITY_DOCUMENT' }),
    );
    expect(again.errors.map((e) => e.type)).not.toContain('MISSING_CONTROL_PERSON');
  });

  it('onboards a business end to end: IN_PROGRESS, documents locked, then APPROVED with CUSTOMER.KYB_* webhooks', async () => {
    const p = await TestPlatform.create(t);
    const { b, owner, docs } = await readyBusiness(p);
    const v = await submit(p, b.id);
    expect(v).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    expect((await p.get(`/customers/${b.id}`)).body).toMatchObject({ kybStatus: 'PENDING' });
    expectError(await p.delete(`/documents/${docs[0].id}`), 409, 'CONFLICT');
    // submitting again while in progress answers the same verification
    expect((await submit(p, b.id)).id).toBe(v.id);

    const done = await p.post(`/sandbox/verifications/${v.id}/complete`, { verificationStatus: 'APPROVED' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: v.id, verificationStatus: 'APPROVED', errors: [] });
    expect((await p.get(`/customers/${b.id}`)).body).toMatchObject({ kybStatus: 'APPROVED' });
    expect((await p.get(`/beneficial-owners/${owner.id}`)).body).toMatchObject({ kycStatus: 'APPROVED' });
    expect((await p.get(`/documents/${docs[1].id}`)).body).toMatchObject({ reviewStatus: 'ACCEPTED' });
    const types = (await recordedEvents(p)).map((e) => e.type).filter((x) => /^(VERIFICATION|CUSTOMER)\./.test(x));
    expect(types).toEqual(
      ['VERIFICATION.IN_PROGRESS', 'CUSTOMER.KYB_PENDING', 'VERIFICATION.APPROVED', 'CUSTOMER.KYB_APPROVED'].sort(
        (a, c) => types.indexOf(a) - types.indexOf(c),
      ),
    );
    expect(new Set(types)).toEqual(
      new Set(['VERIFICATION.IN_PROGRESS', 'CUSTOMER.KYB_PENDING', 'VERIFICATION.APPROVED', 'CUSTOMER.KYB_APPROVED']),
    );
    expectError(
      await p.post(`/sandbox/verifications/${v.id}/complete`, { verificationStatus: 'REJECTED' }),
      409,
      'CONFLICT',
    );
  });

  it('shows a rejected document with its code; after PUT the customer is resubmitted, then REJECTED gives KYC_REJECTED', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const missing = await submit(p, c.id);
    expect(missing.errors).toEqual([expect.objectContaining({ resourceId: c.id, type: 'MISSING_IDENTITY_DOCUMENT' })]);
    const doc = await newDocument(p, c.id, 'PASSPORT', { documentNumber: 'REJECT_EXPIRED' });
    const rejected = await submit(p, c.id);
    expect(rejected.errors).toEqual([
      expect.objectContaining({ resourceId: doc.id, type: 'EXPIRED_DOCUMENT', rejectionCode: 'EXPIRED' }),
    ]);
    const put = await p.t.http
      .put(`${V}/documents/${doc.id}`)
      .set('Authorization', p.authorization)
      .field('documentNumber', 'P1234567');
    expect(put.body).toMatchObject({ reviewStatus: 'PENDING' });
    const v = await submit(p, c.id);
    expect(v.verificationStatus).toBe('IN_PROGRESS');
    await p.post(`/sandbox/verifications/${v.id}/complete`, { verificationStatus: 'PENDING_MANUAL_REVIEW' });
    const out = await p.post(`/sandbox/verifications/${v.id}/complete`, { verificationStatus: 'REJECTED' });
    expect(out.body).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [expect.objectContaining({ type: 'APPLICANT_REJECTED' })],
    });
    expect((await p.get(`/customers/${c.id}`)).body).toMatchObject({ kycStatus: 'REJECTED' });
    expect((await recordedEvents(p, 'CUSTOMER.KYC_REJECTED')).length).toBe(1);
    expect((await recordedEvents(p, 'VERIFICATION.PENDING_MANUAL_REVIEW')).length).toBe(1);
  });

  it('two concurrent submissions of one customer make one verification and one KYB_PENDING', async () => {
    const p = await TestPlatform.create(t);
    const { b } = await readyBusiness(p);
    const both = await Promise.all([submit(p, b.id), submit(p, b.id), submit(p, b.id)]);
    expect(new Set(both.map((v) => v.id)).size).toBe(1);
    expect((await recordedEvents(p, 'CUSTOMER.KYB_PENDING')).length).toBe(1);
    expect((await recordedEvents(p, 'VERIFICATION.IN_PROGRESS')).length).toBe(1);
  });

  it("is 404 for another platform's verification or customer", async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const v = await submit(p, c.id);
    expectError(await other.get(`/verifications/${v.id}`), 404, 'VERIFICATION_NOT_FOUND');
    expectError(await other.post('/verifications', { customerId: c.id }), 404, 'CUSTOMER_NOT_FOUND');
    expectError(
      await other.post(`/sandbox/verifications/${v.id}/complete`, { verificationStatus: 'APPROVED' }),
      404,
      'VERIFICATION_NOT_FOUND',
    );
    const list = await p.get(`/verifications?customerId=${encodeURIComponent(c.id)}&verificationStatus=RESOLVE_ERRORS`);
    expect(list.body).toMatchObject({ data: [v], totalCount: 1 });
  });
});

describe('POST /customers/{customerId}/kyc-link', () => {
  it('answers a single-use hosted page that approves the customer, with the same webhooks', async () => {
    const p = await TestPlatform.create(t);
    const c = await newIndividual(p);
    const res = await p.post(`/customers/${c.id}/kyc-link`, { redirectUri: 'https://app.example.com/done' });
    expect(res.status).toBe(201);
    const link = res.body as { kycUrl: string; expiresAt: string; provider: string };
    expect(link.provider).toBe('SUMSUB');
    const url = new URL(link.kycUrl);
    expect(url.pathname).toMatch(new RegExp(`^${V}/sandbox/kyc/[A-Za-z0-9_-]{43}$`));
    expect((await p.get(`/customers/${c.id}`)).body).toMatchObject({ kycStatus: 'UNVERIFIED' });

    const page = await t.http.get(url.pathname);
    expect({ status: page.status, body: page.status === 200 ? null : page.text }).toEqual({ status: 200, body: null });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Approve');
    const approve = await t.http.post(`${url.pathname}/approve`);
    expect(approve.status).toBe(303);
    expect(approve.headers.location).toBe('https://app.example.com/done');
    expect((await p.get(`/customers/${c.id}`)).body).toMatchObject({ kycStatus: 'APPROVED' });
    expect((await recordedEvents(p, 'CUSTOMER.KYC_APPROVED')).length).toBe(1);
    expect((await recordedEvents(p, 'VERIFICATION.APPROVED')).length).toBe(1);
    // single use; an unknown token the same
    expectError(await t.http.post(`${url.pathname}/approve`), 404, 'NOT_FOUND');
    expectError(await t.http.get(`${V}/sandbox/kyc/not-a-token`), 404, 'NOT_FOUND');
    expectError(
      await p.post(`/customers/${c.id}/kyc-link`, { redirectUri: 'javascript:alert(1)' }),
      400,
      'INVALID_INPUT',
    );
  });
});
