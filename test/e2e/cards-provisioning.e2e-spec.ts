import { FakeClock } from '../support/fake-clock.js';
import { recordedEvents } from '../support/events.js';
import { cardBody, issuedCard, postCard, provisioned, runProvisioning, statusChange } from '../support/cards.js';
import { customerAccount, kycApprovedCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Sandbox provisioning. Test apps run no worker on the shared database: the worker's pass
 * (`CardProvisioningService.runOnce`, what the worker role runs about every second) is driven by
 * hand, with an injected clock. The real worker is exercised in cards-webhooks.e2e-spec.ts.
 */
let t: TestApp;
const clock = new FakeClock();
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

const statusEvents = async (p: TestPlatform, cardId: string) =>
  (await recordedEvents(p, 'CARD.STATUS_CHANGE')).filter((e) => e.data.id === cardId).map((e) => e.data);
const history = async (p: TestPlatform, cardId: string) =>
  ((await p.get(`/cards/${cardId}/status-history`)).body as { data: Array<Record<string, unknown>> }).data;

describe('automatic sandbox provisioning (the worker)', () => {
  it('completes about a second after issuance: PROCESSING → ACTIVE with one event, SYSTEM in the history', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await issuedCard(p);
    expect(await runProvisioning(t, p)).toBe(0);
    clock.advance(999);
    expect(await runProvisioning(t, p)).toBe(0);
    clock.advance(1);
    expect(await runProvisioning(t, p)).toBe(1);
    const active = (await p.get(`/cards/${card.id}`)).body as Record<string, unknown>;
    expect(active).toMatchObject({ status: 'ACTIVE' });
    expect(active.statusReason).toBeUndefined();
    expect(await statusEvents(p, card.id)).toEqual([active]);
    expect((await history(p, card.id)).map((h) => [h.actor, h.fromStatus, h.toStatus])).toEqual([
      [expect.stringMatching(/^Token:/), null, 'PROCESSING'],
      ['SYSTEM', 'PROCESSING', 'ACTIVE'],
    ]);
    // Done once: a later pass finds nothing.
    clock.advance(5000);
    expect(await runProvisioning(t, p)).toBe(0);
    expect(await statusEvents(p, card.id)).toHaveLength(1);
  });

  it("waits in PENDING_KYC while the cardholder's KYC is not APPROVED, and continues when it is approved again", async () => {
    const p = await TestPlatform.create(t);
    const { card, customer } = await issuedCard(p);
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'PENDING' }).expect(200);
    clock.advance(1000);
    expect(await runProvisioning(t, p)).toBe(1);
    const pending = (await p.get(`/cards/${card.id}`)).body as Record<string, unknown>;
    expect(pending.status).toBe('PENDING_KYC');
    expect(pending.statusReason).toBeUndefined();
    // Still not approved: nothing to do, however often the worker looks.
    clock.advance(10_000);
    expect(await runProvisioning(t, p)).toBe(0);
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'REJECTED' }).expect(200);
    expect(await runProvisioning(t, p)).toBe(0);
    expectError(await p.patch(`/cards/${card.id}`, statusChange('ACTIVE')), 409, 'INVALID_STATE_TRANSITION');

    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' }).expect(200);
    expect(await runProvisioning(t, p)).toBe(1);
    const active = (await p.get(`/cards/${card.id}`)).body as Record<string, unknown>;
    expect(active.status).toBe('ACTIVE');
    expect((await statusEvents(p, card.id)).map((c) => c.status)).toEqual(['PENDING_KYC', 'ACTIVE']);
    expect((await history(p, card.id)).map((h) => [h.actor, h.fromStatus, h.toStatus])).toEqual([
      [expect.stringMatching(/^Token:/), null, 'PROCESSING'],
      ['SYSTEM', 'PROCESSING', 'PENDING_KYC'],
      ['SYSTEM', 'PENDING_KYC', 'ACTIVE'],
    ]);
  });
});

describe('manual sandbox provisioning (cardProgram.sandboxProvisioning MANUAL)', () => {
  it('nothing happens in the background; POST /sandbox/cards/{id}/simulate/provisioning completes it', async () => {
    const p = await TestPlatform.create(t);
    const config = await p.patch('/config', { cardProgram: { sandboxProvisioning: 'MANUAL' } });
    expect(config.body.cardProgram.sandboxProvisioning).toBe('MANUAL');
    const { card } = await issuedCard(p);
    clock.advance(60_000);
    expect(await runProvisioning(t, p)).toBe(0);
    expect((await p.get(`/cards/${card.id}`)).body.status).toBe('PROCESSING');
    const active = await provisioned(p, card.id, 'ACTIVE');
    expect(active.status).toBe('ACTIVE');
    expect(await statusEvents(p, card.id)).toEqual([active]);
    expectError(
      await p.post(`/sandbox/cards/${card.id}/simulate/provisioning`, { outcome: 'ACTIVE' }),
      409,
      'INVALID_STATE_TRANSITION',
    );
  });

  it('ISSUER_REJECTED: CLOSED with statusReason ISSUER_REJECTED, one event, and the live-card slot is free', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { cardProgram: { sandboxProvisioning: 'MANUAL', maxLiveCards: 1 } }).expect(200);
    const { card, customer } = await issuedCard(p);
    const account = await customerAccount(p, customer.id);
    expectError(await postCard(p, cardBody(customer.id, account.id)), 409, 'CARD_LIMIT_REACHED');
    const rejected = await provisioned(p, card.id, 'ISSUER_REJECTED');
    expect(rejected).toMatchObject({ status: 'CLOSED', statusReason: 'ISSUER_REJECTED' });
    expect(await statusEvents(p, card.id)).toEqual([rejected]);
    expect((await history(p, card.id))[1]).toMatchObject({
      actor: 'SYSTEM',
      fromStatus: 'PROCESSING',
      toStatus: 'CLOSED',
      statusReason: 'ISSUER_REJECTED',
    });
    expectError(await p.patch(`/cards/${card.id}`, statusChange('CLOSED')), 409, 'CARD_ALREADY_CLOSED');
    expect((await postCard(p, cardBody(customer.id, account.id))).status).toBe(201);
  });

  it('a PENDING_KYC outcome from the simulation continues through the worker once KYC is approved', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { cardProgram: { sandboxProvisioning: 'MANUAL' } }).expect(200);
    const customer = await kycApprovedCustomer(p);
    const { card } = await issuedCard(p, { customer });
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'HOLD' }).expect(200);
    expect((await provisioned(p, card.id)).status).toBe('PENDING_KYC');
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' }).expect(200);
    expect(await runProvisioning(t, p)).toBe(1);
    expect((await p.get(`/cards/${card.id}`)).body.status).toBe('ACTIVE');
  });

  it('validates the body; an unknown card is 404', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await issuedCard(p);
    for (const body of [{}, { outcome: 'MAYBE' }, { outcome: 'ACTIVE', extra: 1 }]) {
      expectError(await p.post(`/sandbox/cards/${card.id}/simulate/provisioning`, body), 400, 'INVALID_INPUT');
    }
    expectError(
      await p.post('/sandbox/cards/Card:00000000-0000-7000-8000-000000000000/simulate/provisioning', {
        outcome: 'ACTIVE',
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('does not exist with SANDBOX=false', async () => {
    const prod = await startTestApp({ SANDBOX: 'false' });
    try {
      const p = await TestPlatform.create(prod);
      expectError(
        await p.post('/sandbox/cards/Card:00000000-0000-7000-8000-000000000000/simulate/provisioning', {
          outcome: 'ACTIVE',
        }),
        404,
        'NOT_FOUND',
      );
      expect((await p.get('/cards')).status).toBe(200);
    } finally {
      await prod.close();
    }
  });
});
