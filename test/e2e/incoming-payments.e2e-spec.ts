import type { EntityManager } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { LedgerService } from '../../src/ledger/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import {
  type IncomingDecision,
  IncomingPaymentsService,
  SANDBOX_SLOW_SETTLEMENT_MS,
} from '../../src/payments/incoming/incoming-payments.service.js';
import { IncomingPaymentsWorker } from '../../src/payments/incoming/incoming-payments.worker.js';
import { recordedEvents } from '../support/events.js';
import { customerAccount, kycApprovedCustomer } from '../support/fixtures.js';
import type { Customer } from '../support/fixtures.js';
import type { Json } from '../support/payments.js';
import { verifyWebhook } from '../support/signatures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Incoming payments with the platform's approval (docs/payments.md): the platform's webhook (a
 * real local receiver) answers INCOMING_PAYMENT.PENDING and its answer decides; 202 leaves it to
 * approve/reject within the window on the platform's clock; the worker fails it after. Money moves
 * once, from the clearing account to the receiver's account, only on approval.
 */
const SUCCESS = '$success.usd@sandbox.grid.uma.money';
let t: TestApp;
let receiver: WebhookReceiver;
const decisions: IncomingDecision[] = [];

beforeAll(async () => {
  t = await startTestApp();
  receiver = await WebhookReceiver.start();
  // The sender side's hook for sandbox payments: records every decision (once per payment).
  t.app.get(IncomingPaymentsService).registerSettlementHook('SANDBOX', {
    onDecided: (m: EntityManager, decision: IncomingDecision) => {
      expect(m.queryRunner?.isTransactionActive).toBe(true);
      decisions.push(decision);
      return Promise.resolve();
    },
  });
}, 120_000);
afterAll(async () => {
  await receiver.stop();
  await t.close();
});
beforeEach(() => receiver.reset());

interface Receiving {
  p: TestPlatform;
  customer: Customer;
  accountId: string;
  balance: () => Promise<number>;
  receive: (amount?: number, sender?: string) => Promise<Json>;
}

/** A platform whose webhook is the receiver, with a KYC-approved customer ready to be paid. */
async function receiving(options: { endpoint?: boolean } = {}): Promise<Receiving> {
  const p = await TestPlatform.create(t);
  if (options.endpoint !== false) {
    const res = await p.patch('/config', { webhookEndpoint: receiver.url });
    expect(res.status).toBe(200);
  }
  const customer = await kycApprovedCustomer(p);
  const account = await customerAccount(p, customer.id);
  return {
    p,
    customer,
    accountId: account.id,
    balance: async () => (await customerAccount(p, customer.id)).balance.amount,
    receive: async (amount = 1_000, sender = SUCCESS) => {
      const res = await p.post('/sandbox/uma/receive', {
        senderUmaAddress: sender,
        customerId: customer.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: amount,
      });
      expect(res.status).toBe(200);
      return res.body as Json;
    },
  };
}

const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const clearing = (p: TestPlatform, kind: 'SANDBOX_FUNDING' | 'UMA_SETTLEMENT' | 'RAIL_CLEARING') =>
  t.app.get(TransactionService).run((m) => t.app.get(LedgerService).systemBalance(m, uuidOf(p), kind, 'USD'));
const runWorker = (p: TestPlatform) => t.app.get(IncomingPaymentsWorker).runOnce({ platformId: uuidOf(p) });
const advance = async (p: TestPlatform, seconds: number) =>
  expect((await p.post('/sandbox/clock/advance', { seconds })).status).toBe(200);
const decisionsOf = (transactionId: string) => decisions.filter((d) => d.transactionId === transactionId);

describe('the webhook answers', () => {
  it('200 approves: credited from the sandbox clearing account, INCOMING_PAYMENT.COMPLETED, the signed PENDING webhook carries the payment', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 200, body: '{"receiverCustomerInfo": {"FULL_NAME": "Ada"}}' });
    const tx = await r.receive(1_234);
    expect(tx).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: SUCCESS },
      destination: { destinationType: 'ACCOUNT', accountId: r.accountId },
      receivedAmount: { amount: 1_234, currency: { code: 'USD' } },
      customerId: r.customer.id,
      senderUmaAddress: SUCCESS,
      counterpartyInformation: { FULL_NAME: 'Sandbox Sender' },
    });
    expect(tx.reconciliationInstructions.reference).toMatch(/^SANDBOX-/);
    expect(await r.balance()).toBe(1_234);
    expect(await clearing(r.p, 'SANDBOX_FUNDING')).toBe(-1_234n);

    const [webhook] = await receiver.waitFor(1);
    expect(webhook.body).toMatchObject({ type: 'INCOMING_PAYMENT.PENDING', data: { id: tx.id, status: 'PENDING' } });
    const config = (await r.p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
    expect(verifyWebhook(webhook, config)).toEqual({ gridSignature: true, standardWebhooks: true });
    const types = (await recordedEvents(r.p)).filter((e) => e.data.id === tx.id).map((e) => e.type);
    expect(types).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
    const [pending] = (await recordedEvents(r.p, 'INCOMING_PAYMENT.PENDING')).filter((e) => e.data.id === tx.id);
    const delivered = (await r.p.get(`/webhook-events/${pending.id}`)).body as Json;
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: [{ responseStatus: 200 }] });
    expect(decisionsOf(tx.id)).toEqual([
      expect.objectContaining({ outcome: 'COMPLETED', reference: tx.reconciliationInstructions.reference }),
    ]);
  });

  it('403 rejects: FAILED COMPLIANCE_REJECTED, nothing credited, INCOMING_PAYMENT.FAILED, the hook told', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 403, body: '{"code": "FORBIDDEN", "reason": "RESTRICTED_JURISDICTION"}' });
    const tx = await r.receive();
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
    expect(await r.balance()).toBe(0);
    expect(await clearing(r.p, 'SANDBOX_FUNDING')).toBe(0n);
    const types = (await recordedEvents(r.p)).filter((e) => e.data.id === tx.id).map((e) => e.type);
    expect(types).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
    expect(decisionsOf(tx.id)).toEqual([
      expect.objectContaining({ outcome: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' }),
    ]);
  });

  it('422 asks for fields: FAILED MISSING_MANDATORY_PAYEE_DATA, the fields reported to the sender side', async () => {
    const r = await receiving();
    receiver.respondWith({
      status: 422,
      body: '{"code": "MISSING_FIELDS", "reason": "more", "requiredFields": ["TAX_ID", "POSTAL_ADDRESS"]}',
    });
    const tx = await r.receive();
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'MISSING_MANDATORY_PAYEE_DATA' });
    expect(await r.balance()).toBe(0);
    expect(decisionsOf(tx.id)).toEqual([
      expect.objectContaining({ outcome: 'FAILED', receiverFields: ['TAX_ID', 'POSTAL_ADDRESS'] }),
    ]);
  });

  it('a receiver failing (500) fails the payment at once: PAYMENT_APPROVAL_WEBHOOK_ERROR, the event not retried', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 500, body: 'boom' });
    const tx = await r.receive();
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    const [pending] = (await recordedEvents(r.p, 'INCOMING_PAYMENT.PENDING')).filter((e) => e.data.id === tx.id);
    expect((await r.p.get(`/webhook-events/${pending.id}`)).body).toMatchObject({
      status: 'FAILED',
      nextAttemptAt: null,
    });
    expect(await r.balance()).toBe(0);
  });

  it('202 then approve: PENDING until the platform approves, then COMPLETED; approving or rejecting again is 409', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 202 });
    const tx = await r.receive(5_000);
    expect(tx.status).toBe('PENDING');
    expect(await r.balance()).toBe(0);
    const approved = await r.p.post(`/transactions/${tx.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ada' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: tx.id, type: 'INCOMING', status: 'COMPLETED' });
    expect(await r.balance()).toBe(5_000);
    expectError(await r.p.post(`/transactions/${tx.id}/approve`, {}), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    expectError(await r.p.post(`/transactions/${tx.id}/reject`, {}), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    expect(await r.balance()).toBe(5_000);
    expect(decisionsOf(tx.id)).toHaveLength(1);
  });

  it('202 then reject: FAILED COMPLIANCE_REJECTED, nothing credited', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 202 });
    const tx = await r.receive();
    const rejected = await r.p.post(`/transactions/${tx.id}/reject`, { reason: 'RESTRICTED_JURISDICTION' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
    expect(await r.balance()).toBe(0);
    expect(decisionsOf(tx.id)).toEqual([expect.objectContaining({ outcome: 'FAILED' })]);
  });

  it('no webhook endpoint: the payment waits for approve/reject as after a 202', async () => {
    const r = await receiving({ endpoint: false });
    const tx = await r.receive(700);
    expect(tx.status).toBe('PENDING');
    expect((await r.p.post(`/transactions/${tx.id}/approve`)).status).toBe(200);
    expect(await r.balance()).toBe(700);
  });
});

describe('the approval window (the platform clock)', () => {
  it('no decision in time: FAILED PAYMENT_APPROVAL_TIMED_OUT once the clock passes the window; approve after it is 409', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 202 });
    const tx = await r.receive();
    expect(await runWorker(r.p)).toBe(0); // the window is still open
    expect(((await r.p.get(`/transactions/${tx.id}`)).body as Json).status).toBe('PENDING');

    await advance(r.p, 6);
    // The window closed on the platform's clock: the platform's call comes too late, whatever the worker did.
    expectError(await r.p.post(`/transactions/${tx.id}/approve`), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    expect(await runWorker(r.p)).toBe(1);
    const failed = (await r.p.get(`/transactions/${tx.id}`)).body as Json;
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect(await r.balance()).toBe(0);
    expect(decisionsOf(tx.id)).toEqual([
      expect.objectContaining({ outcome: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' }),
    ]);
    const types = (await recordedEvents(r.p)).filter((e) => e.data.id === tx.id).map((e) => e.type);
    expect(types).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
  });

  it('a settlement hook that throws undoes only its own payment’s timeout; the worker takes it again', async () => {
    const r = await receiving();
    const service = t.app.get(IncomingPaymentsService);
    let broken = true;
    const told: IncomingDecision[] = [];
    service.registerSettlementHook('UMA', {
      onDecided: (_m, decision) => {
        if (broken && decision.reference === 'UMA-explode') return Promise.reject(new Error('sender side down'));
        told.push(decision);
        return Promise.resolve();
      },
    });
    const input = {
      platformId: r.p.platformId,
      accountId: r.accountId,
      amount: '300',
      currency: 'USD',
      origin: 'UMA' as const,
    };
    receiver.respondWith({ status: 202 }, { status: 202 });
    const exploding = await service.receive({ ...input, reference: 'UMA-explode' });
    const fine = await service.receive({ ...input, reference: 'UMA-fine' });
    await advance(r.p, 6);
    expect(await runWorker(r.p)).toBe(1); // the other one
    expect(((await r.p.get(`/transactions/${exploding.transactionId}`)).body as Json).status).toBe('PENDING');
    expect(((await r.p.get(`/transactions/${fine.transactionId}`)).body as Json).status).toBe('FAILED');
    broken = false;
    expect(await runWorker(r.p)).toBe(1);
    expect((await r.p.get(`/transactions/${exploding.transactionId}`)).body as Json).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
    });
    expect(told.map((d) => d.reference).sort()).toEqual(['UMA-explode', 'UMA-fine']);
    service.registerSettlementHook('UMA', { onDecided: () => Promise.resolve() });
  });

  it('approve, reject and the timeout racing: exactly one outcome, money moved at most once', async () => {
    const r = await receiving();
    let credited = 0;
    // Approve against reject, within the window.
    for (let i = 0; i < 4; i++) {
      receiver.respondWith({ status: 202 });
      const tx = await r.receive(100);
      const [a, b] = await Promise.all([
        r.p.post(`/transactions/${tx.id}/approve`),
        r.p.post(`/transactions/${tx.id}/reject`),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const final = ((await r.p.get(`/transactions/${tx.id}`)).body as Json).status as string;
      expect(final).toBe(a.status === 200 ? 'COMPLETED' : 'FAILED');
      if (final === 'COMPLETED') credited += 100;
      expect(decisionsOf(tx.id)).toHaveLength(1);
    }
    // The worker's timeout against approve and reject, past the window (the worker takes the row
    // it can lock; approve/reject see the window closed): FAILED, once.
    receiver.respondWith({ status: 202 });
    const late = await r.receive(100);
    await advance(r.p, 6);
    const [a, b, worked] = await Promise.all([
      r.p.post(`/transactions/${late.id}/approve`),
      r.p.post(`/transactions/${late.id}/reject`),
      runWorker(r.p),
    ]);
    expect([a.status, b.status]).toEqual([409, 409]);
    // The worker skips a row that approve or reject holds locked at that instant (SKIP LOCKED): the
    // next pass decides it then. Either way, one pass in all decides it.
    const again = await runWorker(r.p);
    expect(worked + again).toBe(1);
    expect(await runWorker(r.p)).toBe(0);
    expect(decisionsOf(late.id)).toEqual([expect.objectContaining({ failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' })]);
    // The platform approves while its webhook's answer (200) is still on its way: one decision.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    receiver.respondWith({ status: 200, after: held });
    const arrival = receiver.nth(receiver.received.length + 1);
    const answered = r.receive(100);
    const webhook = await arrival;
    const approve = await r.p.post(`/transactions/${String(webhook.body.data.id)}/approve`);
    expect(approve.status).toBe(200);
    release();
    const tx = await answered;
    expect(tx.status).toBe('COMPLETED');
    expect(decisionsOf(tx.id)).toHaveLength(1);
    credited += 100;

    expect(await r.balance()).toBe(credited);
    expect(await clearing(r.p, 'SANDBOX_FUNDING')).toBe(BigInt(-credited));
  });
});

describe('approve / reject refusals', () => {
  it('unknown or another platform’s transaction: 404 TRANSACTION_NOT_FOUND; a malformed id 400; a VIEW token 403', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 202 });
    const tx = await r.receive();
    const other = await TestPlatform.create(t);
    expectError(await other.post(`/transactions/${tx.id}/approve`), 404, 'TRANSACTION_NOT_FOUND');
    expectError(await other.post(`/transactions/${tx.id}/reject`), 404, 'TRANSACTION_NOT_FOUND');
    const unknown = 'Transaction:01900000-0000-7000-8000-000000000000';
    expectError(await r.p.post(`/transactions/${unknown}/approve`), 404, 'TRANSACTION_NOT_FOUND');
    expect((await r.p.post('/transactions/nope/approve')).status).toBe(400);
    const viewer = await r.p.token(['VIEW']);
    for (const decision of ['approve', 'reject'])
      expectError(
        await t.http.post(`${V}/transactions/${tx.id}/${decision}`).set('Authorization', viewer.authorization).send({}),
        403,
        'FORBIDDEN',
      );
    expect(invalidFields(await r.p.post(`/transactions/${tx.id}/approve`, { receiverCustomerInfo: 'x' }))).toEqual([
      'receiverCustomerInfo',
    ]);
    // Still pending: the refusals changed nothing.
    expect(((await r.p.get(`/transactions/${tx.id}`)).body as Json).status).toBe('PENDING');
  });

  it('a bank-rail payment is informational: credited at once, no approval webhook, approve is 409', async () => {
    const r = await receiving();
    const service = t.app.get(IncomingPaymentsService);
    const out = await service.receive({
      platformId: r.p.platformId,
      accountId: r.accountId,
      amount: '2500',
      currency: 'USD',
      reference: 'SWIFT-REF-1',
      origin: 'BANK',
      counterpartyInformation: { FULL_NAME: 'Grace Hopper' },
    });
    expect(out).toMatchObject({ status: 'COMPLETED', created: true });
    expect((await r.p.get(`/transactions/${out.transactionId}`)).body).toMatchObject({
      status: 'COMPLETED',
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', accountHolderName: 'Grace Hopper' },
    });
    expect(await r.balance()).toBe(2_500);
    expect(await clearing(r.p, 'RAIL_CLEARING')).toBe(-2_500n);
    expect(receiver.received).toHaveLength(0);
    expectError(
      await r.p.post(`/transactions/${out.transactionId}/approve`),
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    );
    const types = (await recordedEvents(r.p)).filter((e) => e.data.id === out.transactionId).map((e) => e.type);
    expect(types).toEqual(['INCOMING_PAYMENT.COMPLETED']);
  });
});

describe('receive (the contract the UMA exchange calls)', () => {
  it('is idempotent by reference: racing repeats answer one transaction, one webhook, one credit', async () => {
    const r = await receiving();
    const service = t.app.get(IncomingPaymentsService);
    const input = {
      platformId: uuidOf(r.p),
      accountId: r.accountId,
      amount: '4200',
      currency: 'USD',
      senderUmaAddress: '$alice@other.example',
      counterpartyInformation: { FULL_NAME: 'Alice' },
      reference: 'UMA-ref-1',
      origin: 'UMA' as const,
      settlement: { invoice: 'lnbc1' },
    };
    const results = await Promise.all([service.receive(input), service.receive(input), service.receive(input)]);
    expect(new Set(results.map((x) => x.transactionId)).size).toBe(1);
    expect(results.filter((x) => x.created)).toHaveLength(1);
    expect(await service.receive(input)).toMatchObject({ created: false, status: 'COMPLETED' });
    expect(receiver.received.filter((w) => w.body.type === 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
    expect(await r.balance()).toBe(4_200);
    expect(await clearing(r.p, 'UMA_SETTLEMENT')).toBe(-4_200n);
    const tx = (await r.p.get(`/transactions/${results[0].transactionId}`)).body as Json;
    expect(tx).toMatchObject({
      senderUmaAddress: '$alice@other.example',
      reconciliationInstructions: { reference: 'UMA-ref-1' },
    });
  });

  it('refuses what cannot arrive: another platform’s account 404, another currency 400, malformed input 400 with every field', async () => {
    const r = await receiving();
    const other = await receiving();
    const service = t.app.get(IncomingPaymentsService);
    const base = { platformId: uuidOf(r.p), amount: '10', currency: 'USD', reference: 'x', origin: 'UMA' as const };
    await expect(service.receive({ ...base, accountId: other.accountId })).rejects.toMatchObject({
      code: 'ACCOUNT_NOT_FOUND',
    });
    await expect(service.receive({ ...base, accountId: r.accountId, currency: 'EUR' })).rejects.toMatchObject({
      code: 'INVALID_CURRENCY',
    });
    const malformed = (await service
      .receive({ ...base, accountId: 'nope', amount: '-1', reference: '' })
      .catch((error: unknown) => error)) as {
      code: string;
      options: { details: { errors: Array<{ field: string }> } };
    };
    expect(malformed.code).toBe('INVALID_INPUT');
    expect(malformed.options.details.errors.map((e) => e.field)).toEqual(['accountId', 'amount', 'reference']);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('POST /sandbox/uma/receive', () => {
  it('the failing sender: approved by the platform, then FAILED (QUOTE_EXECUTION_FAILED), nothing credited', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 200 });
    const tx = await r.receive(900, '$fail.usd@sandbox.grid.uma.money');
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' });
    expect(await r.balance()).toBe(0);
  });

  it('the slow sender: PROCESSING after approval until an hour of the platform clock, then COMPLETED and credited', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 200 });
    const tx = await r.receive(800, '$slow.usd@sandbox.grid.uma.money');
    expect(tx.status).toBe('PROCESSING');
    expect(await runWorker(r.p)).toBe(0);
    expect(await r.balance()).toBe(0);
    await advance(r.p, SANDBOX_SLOW_SETTLEMENT_MS / 1000);
    expect(await runWorker(r.p)).toBe(1);
    expect(((await r.p.get(`/transactions/${tx.id}`)).body as Json).status).toBe('COMPLETED');
    expect(await r.balance()).toBe(800);
  });

  it('finds the receiver by UMA address; an unknown sender or receiver is 404, neither receiver given 400', async () => {
    const r = await receiving();
    receiver.respondWith({ status: 200 });
    const body = { senderUmaAddress: SUCCESS, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 300 };
    const ok = await r.p.post('/sandbox/uma/receive', { ...body, receiverUmaAddress: r.customer.umaAddress });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'COMPLETED', receiverUmaAddress: r.customer.umaAddress });
    expectError(
      await r.p.post('/sandbox/uma/receive', {
        ...body,
        senderUmaAddress: '$bob@elsewhere.example',
        customerId: r.customer.id,
      }),
      404,
      'UMA_NOT_FOUND',
    );
    expectError(
      await r.p.post('/sandbox/uma/receive', { ...body, receiverUmaAddress: '$nobody@localhost' }),
      404,
      'UMA_NOT_FOUND',
    );
    expect(invalidFields(await r.p.post('/sandbox/uma/receive', body))).toEqual(['customerId', 'receiverUmaAddress']);
    expectError(
      await r.p.post('/sandbox/uma/receive', { ...body, customerId: r.customer.id, receivingCurrencyCode: 'JPY' }),
      400,
      'INVALID_CURRENCY',
    );
    expect(await r.balance()).toBe(300);
  });
});
