import { parseId } from '../../src/common/ids.js';
import { BulkImportService } from '../../src/bulk-import/bulk-import.service.js';
import { SANDBOX_SLOW_SETTLEMENT_MS } from '../../src/payments/incoming/incoming-payments.service.js';
import { IncomingPaymentsWorker } from '../../src/payments/incoming/incoming-payments.worker.js';
import { RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { authorization, cardWithFunds, type TestCard } from '../support/card-transactions.js';
import { individual, unique } from '../support/customers.js';
import { newDocument, newIndividual } from '../support/documents.js';
import { signedSubscriber, stopSubscribers } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, kycApprovedCustomer, newCustomer } from '../support/fixtures.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { driveRail, type Json, payer } from '../support/payments.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import type { ReceivedWebhook } from '../support/webhook-receiver.js';

/**
 * The reference webhook types whose triggers no other test receives (docs/webhooks.md, "Reference
 * webhook types: trigger and test"), each driven through the HTTP API (sandbox magic values, test
 * clocks, simulations) and received at a real local receiver with both signatures verified
 * (signedSubscriber), the worker draining the outbox on a database of this file's own. The clock
 * is injected: the sandbox rail's steps are real time, moved by hand (driveRail).
 */
const clock = new FakeClock();
let db: IsolatedDatabase;
let t: TestApp;
beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url, clock });
});
afterAll(async () => {
  await t?.close();
  await stopSubscribers();
  await db?.close();
});

/** The type and `data.status` of each webhook about `id`, in arrival order. */
const about = (got: ReceivedWebhook[], id: string) =>
  got.filter((w) => w.body.data.id === id).map((w) => `${w.body.type}:${String(w.body.data.status)}`);
const platformUuid = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const advance = async (p: TestPlatform, seconds: number) =>
  expect((await p.post('/sandbox/clock/advance', { seconds })).status).toBe(200);

describe('OUTGOING_PAYMENT.*', () => {
  it('a payout: PENDING, PROCESSING, COMPLETED, each with the transaction as GET /transactions/{id} renders it', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const a = await payer(p, 50_000);
    const q = await a.quote(12_345);
    await a.execute(q.id);
    expect(await driveRail(t, p, clock)).toBe(2);
    const got = await deliver();
    expect(about(got, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING:PENDING',
      'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
    ]);
    const last = got.filter((w) => w.body.data.id === q.transactionId).pop()!;
    expect(last.body.data).toEqual((await p.get(`/transactions/${q.transactionId}`)).body);
  });

  it('a payout the bank cannot take (amount ending 002): FAILED, REFUND_PENDING, REFUND_COMPLETED after PROCESSING', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const a = await payer(p, 50_000);
    const q = await a.quote(10_002);
    await a.execute(q.id);
    await driveRail(t, p, clock);
    const got = await deliver();
    expect(about(got, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING:PENDING',
      'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
      'OUTGOING_PAYMENT.FAILED:FAILED',
      'OUTGOING_PAYMENT.REFUND_PENDING:FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED:FAILED',
    ]);
    const refunds = got.filter((w) => w.body.data.id === q.transactionId).slice(3);
    expect(refunds.map((w) => (w.body.data.refund as { status: string }).status)).toEqual(['PENDING', 'COMPLETED']);
    expect(await a.balance()).toBe(50_000);
  });

  it('an EU customer’s quote awaiting SCA: PENDING_AUTHORIZATION on execute; the authorization releases it (PENDING); another expires (EXPIRED)', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const customer = await kycApprovedCustomer(
      p,
      individual({
        address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
        nationality: 'FR',
        phoneNumber: '+33612345678',
      }),
    );
    const a = await payer(p, 100_000, { customer });
    const released = await a.quote(2_000);
    expect(released.status).toBe('PENDING_AUTHORIZATION');
    expect(await a.execute(released.id)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    expect((await p.post(`/quotes/${released.id}/authorize`, { code: '123456' })).status).toBe(200);
    const expiring = await a.quote(2_500, { immediatelyExecute: true });
    await advance(p, 301);
    expect(await t.app.get(RailWorker).runOnce({ platformId: platformUuid(p) })).toBeGreaterThanOrEqual(1);

    const got = await deliver();
    expect(about(got, released.transactionId).slice(0, 2)).toEqual([
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION:PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.PENDING:PENDING',
    ]);
    expect(about(got, expiring.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION:PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.EXPIRED:EXPIRED',
    ]);
    const expired = got.filter((w) => w.body.data.id === expiring.transactionId).pop()!;
    expect(expired.body.data).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    expect(expired.body.data).toEqual((await p.get(`/transactions/${expiring.transactionId}`)).body);
  });
});

describe('INCOMING_PAYMENT.*', () => {
  const receive = async (p: TestPlatform, customerId: string, sender: string) => {
    const res = await p.post('/sandbox/uma/receive', {
      senderUmaAddress: sender,
      customerId,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 800,
    });
    expect(res.status).toBe(200);
    return res.body as Json;
  };

  it('a slow sender: PENDING (answered 200: approved), PROCESSING until it settles an hour later, then COMPLETED', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const customer = await kycApprovedCustomer(p);
    await customerAccount(p, customer.id);
    const tx = await receive(p, customer.id, '$slow.usd@sandbox.grid.uma.money');
    expect(tx.status).toBe('PROCESSING');
    const first = await deliver();
    expect(about(first, tx.id)).toEqual(['INCOMING_PAYMENT.PENDING:PENDING', 'INCOMING_PAYMENT.PROCESSING:PROCESSING']);
    expect(first.find((w) => w.body.type === 'INCOMING_PAYMENT.PROCESSING')!.body.data).toEqual(
      (await p.get(`/transactions/${tx.id}`)).body,
    );

    await advance(p, SANDBOX_SLOW_SETTLEMENT_MS / 1000);
    expect(await t.app.get(IncomingPaymentsWorker).runOnce({ platformId: platformUuid(p) })).toBe(1);
    const later = await deliver();
    expect(about(later, tx.id)).toEqual(['INCOMING_PAYMENT.COMPLETED:COMPLETED']);
    expect(later.find((w) => w.body.data.id === tx.id)!.body.data).toEqual(
      (await p.get(`/transactions/${tx.id}`)).body,
    );
  });

  it('a failing sender: PENDING, then FAILED (QUOTE_EXECUTION_FAILED) once approved', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const customer = await kycApprovedCustomer(p);
    await customerAccount(p, customer.id);
    const tx = await receive(p, customer.id, '$fail.usd@sandbox.grid.uma.money');
    const got = await deliver();
    expect(about(got, tx.id)).toEqual(['INCOMING_PAYMENT.PENDING:PENDING', 'INCOMING_PAYMENT.FAILED:FAILED']);
    expect(got.find((w) => w.body.type === 'INCOMING_PAYMENT.FAILED')!.body.data).toMatchObject({
      failureReason: 'QUOTE_EXECUTION_FAILED',
    });
  });
});

describe('VERIFICATION.*', () => {
  const submit = async (p: TestPlatform, customerId: string) => {
    const res = await p.post('/verifications', { customerId });
    expect(res.status).toBe(200);
    return res.body as Json;
  };
  const complete = async (p: TestPlatform, id: string, verificationStatus: string) => {
    const res = await p.post(`/sandbox/verifications/${id}/complete`, { verificationStatus });
    expect(res.status).toBe(200);
    return res.body as Json;
  };

  it('RESOLVE_ERRORS, IN_PROGRESS, PENDING_MANUAL_REVIEW, REJECTED for one customer; APPROVED for another', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const c = await newIndividual(p);
    const missing = await submit(p, c.id);
    await newDocument(p, c.id, 'PASSPORT');
    const v = await submit(p, c.id);
    const review = await complete(p, v.id, 'PENDING_MANUAL_REVIEW');
    const rejected = await complete(p, v.id, 'REJECTED');
    const d = await newIndividual(p);
    await newDocument(p, d.id, 'PASSPORT');
    const w = await submit(p, d.id);
    const approved = await complete(p, w.id, 'APPROVED');

    // In order per verification (its aggregate); verifications do not wait for each other.
    const got = (await deliver()).filter((x) => x.body.type.startsWith('VERIFICATION.'));
    const of = (id: string) => got.filter((x) => x.body.data.id === id).map((x) => [x.body.type, x.body.data]);
    expect(of(missing.id)).toEqual([['VERIFICATION.RESOLVE_ERRORS', missing]]);
    expect(of(v.id)).toEqual([
      ['VERIFICATION.IN_PROGRESS', v],
      ['VERIFICATION.PENDING_MANUAL_REVIEW', review],
      ['VERIFICATION.REJECTED', rejected],
    ]);
    expect(of(w.id)).toEqual([
      ['VERIFICATION.IN_PROGRESS', w],
      ['VERIFICATION.APPROVED', approved],
    ]);
    expect(got).toHaveLength(6);
  });
});

describe('INVITATION.CLAIMED and BULK_UPLOAD.COMPLETED', () => {
  it('an invitation claimed by another platform: INVITATION.CLAIMED to the inviter’s platform, with the invitation', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const inviter = await newCustomer(p);
    const created = await p.post('/invitations', { inviterUma: inviter.umaAddress });
    expect(created.status).toBe(201);
    const code = (created.body as Json).code as string;
    const other = await TestPlatform.create(t);
    const claimed = await other.post(`/invitations/${code}/claim`, { inviteeUma: '$friend@example.com' });
    expect(claimed.status).toBe(200);
    const got = (await deliver()).filter((w) => w.body.type === 'INVITATION.CLAIMED');
    expect(got.map((w) => w.body.data)).toEqual([(await p.get(`/invitations/${code}`)).body]);
    expect(got[0].body.data).toMatchObject({ code, status: 'CLAIMED', inviteeUma: '$friend@example.com' });
  });

  it('a bulk customer import: BULK_UPLOAD.COMPLETED with the finished job (a failed row counted and listed)', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const header =
      'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName,businessTaxId,businessIncorporatedOn';
    const csv = [
      header,
      `,${unique('bulk')},INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US,,`,
      `,${unique('bulk')},INDIVIDUAL,Bad Date,1990-02-31,1 Main,Austin,TX,78701,US,,`,
    ].join('\n');
    const res = await t.http
      .post(`${V}/customers/bulk/csv`)
      .set('Authorization', p.authorization)
      .attach('file', Buffer.from(csv), { filename: 'customers.csv', contentType: 'text/csv' });
    expect(res.status).toBe(202);
    const jobId = (res.body as { jobId: string }).jobId;
    await t.app.get(BulkImportService).settled(jobId.split(':')[1]);
    const got = (await deliver()).filter((w) => w.body.type.startsWith('BULK_UPLOAD.'));
    expect(got.map((w) => [w.body.type, w.body.data])).toEqual([
      ['BULK_UPLOAD.COMPLETED', (await p.get(`/customers/bulk/jobs/${jobId}`)).body],
    ]);
    expect(got[0].body.data).toMatchObject({
      status: 'COMPLETED',
      progress: { total: 2, processed: 2, successful: 1, failed: 1 },
    });
  });
});

describe('CARD_TRANSACTION.PARTIALLY_SETTLED and CARD_TRANSACTION.EXCEPTION', () => {
  const simulate = async (p: TestPlatform, card: TestCard, what: string, body: object) => {
    const res = await p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);
    expect(res.status).toBe(202);
    return res.body.cardTransaction as Json;
  };

  it('a partial clearing (PARTIALLY_SETTLED) and a clearing the sandbox fails to pull (descriptor suffix 006: EXCEPTION)', async () => {
    const { p, deliver } = await signedSubscriber(t);
    const card = await cardWithFunds(p, 10_000);
    const partial = await simulate(p, card, 'authorization', authorization(1_000));
    const part = await simulate(p, card, 'clearing', { cardTransactionId: partial.id, amount: 400 });
    const failing = await simulate(p, card, 'authorization', authorization(100, 'FAILING 006'));
    const exception = await simulate(p, card, 'clearing', { cardTransactionId: failing.id, amount: 100 });

    const got = await deliver();
    expect(about(got, partial.id)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED:AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED:PARTIALLY_SETTLED',
    ]);
    expect(about(got, failing.id)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED:AUTHORIZED',
      'CARD_TRANSACTION.EXCEPTION:EXCEPTION',
    ]);
    const data = (type: string) => got.find((w) => w.body.type === type)!.body.data;
    expect(data('CARD_TRANSACTION.PARTIALLY_SETTLED')).toEqual(part);
    expect(data('CARD_TRANSACTION.EXCEPTION')).toEqual(exception);
  });
});
