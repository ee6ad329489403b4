import { authorization, cardWithFunds } from '../support/card-transactions.js';
import { WebhookCapture } from '../support/events.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { verifyWebhook } from '../support/signatures.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/** CARD_TRANSACTION.* webhooks delivered by the outbox worker to a real local receiver, signatures verified. */
let db: IsolatedDatabase;
let t: TestApp;
let capture: WebhookCapture | undefined;
beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url });
});
afterAll(async () => {
  await t?.close();
  await capture?.stop();
  await db?.close();
});

it('AUTHORIZED, DECLINED, SETTLED (purchase, then its return) and VOIDED arrive signed, with the transaction as data', async () => {
  const p = await TestPlatform.create(t);
  capture = await WebhookCapture.attach(t, p);
  const card = await cardWithFunds(p, 1000);
  await capture.deliver(); // the cardholder's and the card's own events
  const keys = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
  const sim = async (what: string, body: object) => {
    const res = await p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);
    expect(res.status).toBe(202);
    return res.body.cardTransaction as { id: string };
  };
  const bought = await sim('authorization', authorization(500));
  const declined = await sim('authorization', authorization(5000));
  const settled = await sim('clearing', { cardTransactionId: bought.id, amount: 500 });
  const credit = await sim('return', { cardTransactionId: bought.id, amount: 100 });
  const voided = await sim('authorization_expiry', {
    cardTransactionId: (await sim('authorization', authorization(1))).id,
  });

  const got = (await capture.deliver()).filter((w) => String(w.body.type).startsWith('CARD_TRANSACTION.'));
  for (const w of got) expect(verifyWebhook(w, keys)).toEqual({ gridSignature: true, standardWebhooks: true });
  // In order per transaction (the aggregate); transactions are independent of each other.
  const byTransaction = new Map<string, Array<[unknown, unknown]>>();
  for (const w of got) {
    const data = w.body.data as { id: string };
    byTransaction.set(data.id, [...(byTransaction.get(data.id) ?? []), [w.body.type, w.body.data]]);
  }
  expect(byTransaction.get(bought.id)).toEqual([
    ['CARD_TRANSACTION.AUTHORIZED', expect.objectContaining({ id: bought.id, status: 'AUTHORIZED' })],
    ['CARD_TRANSACTION.SETTLED', settled],
  ]);
  expect(byTransaction.get(declined.id)).toEqual([['CARD_TRANSACTION.DECLINED', declined]]);
  expect(byTransaction.get(credit.id)).toEqual([['CARD_TRANSACTION.SETTLED', credit]]);
  expect(byTransaction.get(voided.id)).toEqual([
    ['CARD_TRANSACTION.AUTHORIZED', expect.objectContaining({ id: voided.id, status: 'AUTHORIZED' })],
    ['CARD_TRANSACTION.VOIDED', voided],
  ]);
  expect(got).toHaveLength(6);
});
