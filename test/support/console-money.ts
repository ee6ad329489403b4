import { individual } from './customers.js';
import { kycApprovedCustomer } from './fixtures.js';
import type { FakeClock } from './fake-clock.js';
import { driveRail, payer, type Json } from './payments.js';
import type { TestApp, TestPlatform } from './test-app.js';

/** Ada's external account: "Chase Bank ••••1234" in the console. */
const ADA_ACCOUNT_NUMBER = '98765431234';
export const UMA_SENDER = '$success.usd@sandbox.grid.uma.money';

/**
 * A platform's money for the console's overview, names and search (test/e2e/console*.ts), made
 * through the API: Ada Lovelace (funded 100.00 USD) pays 7.00 (COMPLETED) and 10.02 (the sandbox
 * rail fails it, refunded) to her Chase Bank account ••••1234, then 3.00 that is left PENDING;
 * Grace Hopper (funded 50.00 USD) pays 25.00 (COMPLETED) and receives 15.00 from a UMA address
 * (approved: COMPLETED) and 4.00 more that waits for the platform's decision. Then the platform's
 * test clock moves 2 hours on: the 3.00 is stuck and the approval 2 hours old.
 * `beforePendingIncoming` lets a platform with a webhook endpoint answer 202 (decide later).
 */
export async function moneyPlatform(
  t: TestApp,
  p: TestPlatform,
  clock: FakeClock,
  options: { beforeIncoming?: (pending: boolean) => void } = {},
) {
  const adaCustomer = await kycApprovedCustomer(p, individual({ fullName: 'Ada Lovelace' }));
  const graceCustomer = await kycApprovedCustomer(p, individual({ fullName: 'Grace Hopper' }));
  const ada = await payer(p, 10_000, { customer: adaCustomer });
  const grace = await payer(p, 5_000, { customer: graceCustomer });
  const chase = await p.post('/customers/external-accounts', {
    customerId: adaCustomer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: ADA_ACCOUNT_NUMBER,
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1990-01-15',
        nationality: 'US',
      },
    },
  });
  if (chase.status !== 201) throw new Error(`external account: ${chase.status} ${JSON.stringify(chase.body)}`);
  const chaseId = (chase.body as Json).id as string;

  const paid = await ada.quote(700, {}, chaseId);
  const failing = await ada.quote(1_002, {}, chaseId);
  const graces = await grace.quote(2_500);
  for (const q of [paid, failing, graces]) await ada.execute(q.id as string);
  await driveRail(t, p, clock);
  const stuck = await ada.quote(300, {}, chaseId);
  await ada.execute(stuck.id as string);

  const receive = async (amount: number, pending: boolean): Promise<Json> => {
    options.beforeIncoming?.(pending);
    const res = await p.post('/sandbox/uma/receive', {
      senderUmaAddress: UMA_SENDER,
      customerId: graceCustomer.id,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: amount,
    });
    if (res.status !== 200 && res.status !== 201) throw new Error(`receive: ${res.status} ${JSON.stringify(res.body)}`);
    let body = res.body as Json;
    if (!pending && body.status === 'PENDING') {
      const approved = await p.post(`/transactions/${body.id as string}/approve`, {});
      if (approved.status !== 200) throw new Error(`approve: ${approved.status} ${JSON.stringify(approved.body)}`);
      body = approved.body as Json;
    }
    return body;
  };
  const received = await receive(1_500, false);
  const waiting = await receive(400, true);

  const advanced = await p.post('/sandbox/clock/advance', { seconds: 2 * 3600 });
  if (advanced.status !== 200) throw new Error(`advance: ${advanced.status} ${JSON.stringify(advanced.body)}`);
  return {
    ada: { ...ada, customer: adaCustomer },
    grace: { ...grace, customer: graceCustomer },
    chaseId,
    paid: paid.transactionId as string,
    failing: failing.transactionId as string,
    graces: graces.transactionId as string,
    stuck: stuck.transactionId as string,
    received: received.id as string,
    waiting: waiting.id as string,
  };
}
