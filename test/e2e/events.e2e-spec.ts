import { EntityManager } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { LedgerService, systemAccount } from '../../src/ledger/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { exampleAccountInfo, exampleCurrency } from '../../src/external-accounts/variants/index.js';
import { business } from '../support/customers.js';
import { Envelope, recordedEvents, signedSubscriber, stopSubscribers } from '../support/events.js';
import { customerAccount, fundedAccount, kycApprovedCustomer, newCustomer } from '../support/fixtures.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import type { ReceivedWebhook } from '../support/webhook-receiver.js';

/**
 * The events the existing areas write through the outbox, received at a real local receiver with
 * both signatures verified. The worker runs one drain at a time on a database of this file's own.
 */
let db: IsolatedDatabase;
let t: TestApp;
beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url });
});
afterAll(async () => {
  await t.close();
  await stopSubscribers();
  await db.close();
});

/** A platform whose webhooks arrive at a fresh receiver, every one checked for both signatures. */
const subscribed = () => signedSubscriber(t);

const summary = (got: ReceivedWebhook[]) => got.map((w) => ({ type: w.body.type, data: w.body.data }));
const inTx = <T>(work: (m: EntityManager) => Promise<T>) => t.app.get(TransactionService).run(work);

describe('CUSTOMER.KYC_* and CUSTOMER.KYB_*', () => {
  it('creating a customer sends nothing; each KYC change sends CUSTOMER.KYC_<status> with the customer', async () => {
    const { p, deliver } = await subscribed();
    const c = await newCustomer(p);
    expect(await deliver()).toEqual([]);

    const answers: unknown[] = [];
    for (const kycStatus of ['PENDING', 'APPROVED', 'REJECTED']) {
      const res = await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus });
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    const got = await deliver();
    // In order (one aggregate: the customer), each carrying the customer as that change left it.
    expect(summary(got)).toEqual([
      { type: 'CUSTOMER.KYC_PENDING', data: answers[0] },
      { type: 'CUSTOMER.KYC_APPROVED', data: answers[1] },
      { type: 'CUSTOMER.KYC_REJECTED', data: answers[2] },
    ]);
    expect(got[2].body.data).toEqual((await p.get(`/customers/${c.id}`)).body);
    expect(got[0].body.data).toMatchObject({ id: c.id, customerType: 'INDIVIDUAL', kycStatus: 'PENDING' });
    // The outbox keeps them (GET /webhook-events) with the customer as their aggregate.
    const events = (await p.get('/webhook-events?type=CUSTOMER.KYC_APPROVED')).body.data;
    expect(events).toEqual([expect.objectContaining({ aggregateId: c.id, status: 'DELIVERED' })]);
  });

  it('a business customer sends CUSTOMER.KYB_<status>', async () => {
    const { p, deliver } = await subscribed();
    const c = await newCustomer(p, business());
    for (const kycStatus of ['PENDING', 'APPROVED', 'REJECTED'])
      expect((await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus })).status).toBe(200);
    const got = await deliver();
    expect(got.map((w) => w.body.type)).toEqual([
      'CUSTOMER.KYB_PENDING',
      'CUSTOMER.KYB_APPROVED',
      'CUSTOMER.KYB_REJECTED',
    ]);
    expect(got[1].body.data).toMatchObject({ id: c.id, customerType: 'BUSINESS', kybStatus: 'APPROVED' });
  });

  it('UNVERIFIED and HOLD (no event type in the reference) and an unchanged status send nothing', async () => {
    const { p, deliver } = await subscribed();
    const c = await kycApprovedCustomer(p);
    expect((await deliver()).map((w) => w.body.type)).toEqual(['CUSTOMER.KYC_APPROVED']);
    const again = await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus: 'APPROVED' });
    expect(again.body).toEqual(c); // nothing changed, updatedAt included
    for (const kycStatus of ['HOLD', 'UNVERIFIED'])
      expect((await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus })).status).toBe(200);
    expect(await deliver()).toEqual([]);
    // A change that fails (deleted customer: 410) writes nothing either.
    await p.delete(`/customers/${c.id}`);
    expectError(await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus: 'PENDING' }), 410, 'CUSTOMER_DELETED');
    expect(await deliver()).toEqual([]);
  });
});

describe('INTERNAL_ACCOUNT.BALANCE_UPDATED', () => {
  it('every funding sends the account after the movement, in order per account', async () => {
    const { p, deliver } = await subscribed();
    const c = await newCustomer(p);
    const account = await customerAccount(p, c.id);
    const first = await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 100 });
    const second = await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 250 });
    const [own] = (await p.get('/platform/internal-accounts')).body.data as Array<{ id: string }>;
    const platformFunding = await p.post(`/sandbox/internal-accounts/${own.id}/fund`, { amount: 7 });
    expect([first.status, second.status, platformFunding.status]).toEqual([200, 200, 200]);

    const got = await deliver();
    expect(summary(got.filter((w) => w.body.data.id === account.id))).toEqual([
      { type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: first.body },
      { type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: second.body },
    ]);
    expect(second.body).toMatchObject({ id: account.id, customerId: c.id, balance: { amount: 350 } });
    expect(summary(got.filter((w) => w.body.data.id === own.id))).toEqual([
      { type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', data: platformFunding.body },
    ]);
  });

  it('every ledger movement sends it, debits too; a movement that fails or rolls back sends nothing', async () => {
    const { p, deliver } = await subscribed();
    const { account } = await fundedAccount(p, 1000);
    expect((await deliver()).map((w) => w.body.type)).toEqual([
      'CUSTOMER.KYC_APPROVED',
      'INTERNAL_ACCOUNT.BALANCE_UPDATED',
    ]);
    const ledger = t.app.get(LedgerService);
    const accountId = parseId('InternalAccount', account.id)!;
    const debit = (m: EntityManager, amount: bigint) =>
      ledger.transfer(m, {
        lines: [
          { account: { internalAccountId: accountId }, amount: -amount },
          { account: systemAccount('CARD_SETTLEMENT', parseId('Platform', p.platformId)!, 'USD'), amount },
        ],
        reason: 'TEST_DEBIT',
      });
    await inTx((m) => debit(m, 400n));
    await expect(
      inTx(async (m) => {
        await debit(m, 100n);
        throw new Error('the rest of the operation failed');
      }),
    ).rejects.toThrow('the rest of the operation failed');
    await expect(inTx((m) => debit(m, 601n))).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    const got = await deliver();
    expect(summary(got)).toEqual([
      {
        type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
        data: (await p.get(`/customers/internal-accounts?customerId=${account.customerId}`)).body.data[0],
      },
    ]);
    expect(got[0].body.data).toMatchObject({ balance: { amount: 600 } });
  });

  it('an idempotent replay of a funding sends no second event', async () => {
    const { p, deliver } = await subscribed();
    const c = await newCustomer(p);
    const account = await customerAccount(p, c.id);
    const fund = () =>
      p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 5 }).set('Idempotency-Key', `k-${c.id}`);
    expect((await fund()).status).toBe(200);
    const replay = await fund();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await deliver()).map((w) => w.body.data.balance)).toEqual([expect.objectContaining({ amount: 5 })]);
  });
});

describe('EXTERNAL_ACCOUNT.STATUS_UPDATED', () => {
  const wallet = () => ({
    currency: exampleCurrency('SOLANA_WALLET'),
    ownershipType: 'FIRST_PARTY',
    accountInfo: exampleAccountInfo('SOLANA_WALLET', Math.floor(Math.random() * 1000)),
  });

  it('creating sends nothing (the 201 has the status); each transition sends the account', async () => {
    const { p, deliver } = await subscribed();
    expect((await p.patch('/config', { counterpartyRequirements: true })).status).toBe(200);
    const c = await newCustomer(p);
    const created = await p.post('/customers/external-accounts', { ...wallet(), customerId: c.id });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    expect(await deliver()).toEqual([]);

    const set = (status: string) => p.post(`/sandbox/external-accounts/${created.body.id}/status`, { status });
    const unverified = await set('UNVERIFIED');
    const active = await set('ACTIVE');
    expect(unverified.body).toEqual({ ...created.body, status: 'UNVERIFIED' });
    expect(active.body).toEqual({ ...created.body, status: 'ACTIVE' });
    expect((await set('ACTIVE')).body).toEqual(active.body); // unchanged: no event
    const got = await deliver();
    expect(summary(got)).toEqual([
      { type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', data: unverified.body },
      { type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', data: active.body },
    ]);
    expect(got[1].body.data).toEqual((await p.get(`/customers/external-accounts/${created.body.id}`)).body);
  });

  it("works for the platform's own accounts; unknown, deleted or foreign ids are 404 and send nothing", async () => {
    const { p, deliver } = await subscribed();
    const other = await TestPlatform.create(t);
    const own = await p.post('/platform/external-accounts', {
      currency: 'EUR',
      accountInfo: exampleAccountInfo('EUR_ACCOUNT', Math.floor(Math.random() * 1000)),
    });
    expect(own.status).toBe(201);
    const res = await p.post(`/sandbox/external-accounts/${own.body.id}/status`, { status: 'UNDER_REVIEW' });
    expect(res.body).toMatchObject({ id: own.body.id, customerId: null, status: 'UNDER_REVIEW' });
    expect(summary(await deliver())).toEqual([{ type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', data: res.body }]);

    expectError(
      await other.post(`/sandbox/external-accounts/${own.body.id}/status`, { status: 'ACTIVE' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expect((await p.delete(`/platform/external-accounts/${own.body.id}`)).status).toBe(204);
    expectError(
      await p.post(`/sandbox/external-accounts/${own.body.id}/status`, { status: 'ACTIVE' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    const bad = expectError(
      await p.post(`/sandbox/external-accounts/${own.body.id}/status`, { status: 'GONE', x: 1 }),
      400,
      'INVALID_INPUT',
    );
    expect((bad.details!.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['status', 'x']);
    expect(await deliver()).toEqual([]);
  });

  it('needs TRANSACT', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW', 'MANAGE']);
    const res = await t.http
      .post(`/2025-10-13/sandbox/external-accounts/ExternalAccount:00000000-0000-7000-8000-000000000000/status`)
      .set('Authorization', viewer.authorization)
      .send({ status: 'ACTIVE' });
    expectError(res, 403, 'FORBIDDEN');
  });
});

describe('event capture without a worker (recordedEvents)', () => {
  it("reads the platform's outbox oldest first, by type", async () => {
    const p = await TestPlatform.create(t);
    const { customer, account } = await fundedAccount(p, 42);
    const all: Envelope[] = await recordedEvents(p);
    expect(all.map((e) => [e.type, e.data.id])).toEqual([
      ['CUSTOMER.KYC_APPROVED', customer.id],
      ['INTERNAL_ACCOUNT.BALANCE_UPDATED', account.id],
    ]);
    expect((await recordedEvents(p, 'INTERNAL_ACCOUNT.BALANCE_UPDATED')).map((e) => e.data)).toEqual([account]);
  });
});
