import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateApi } from 'swagger-typescript-api';
import { individual } from '../support/customers.js';
import { customerAccount, kycApprovedCustomer, supportCurrencies } from '../support/fixtures.js';
import { payer } from '../support/payments.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * The stand-in for "works with the official Grid SDK" (not in this registry): a client generated
 * from the REFERENCE OpenAPI document (not ours; its committed subset, see REFERENCE below), so its
 * paths, bodies and response shapes are the reference's, moves money end to end: exchange rates, a
 * quote, its execution, the transaction, the list, transfer-out and transfer-in; receives it: a
 * sandbox sender's payment the platform approves or rejects; and speaks UMA: a lookup, the
 * providers, invitations.
 */
// The reference's operations this file calls, committed as data (test/fixtures/reference/): the
// subset extract.mjs there cuts from the full reference document, which lives outside the
// repository and is never read by a test. test/unit/foundation/reference-subset.spec.ts keeps it
// honest: it re-extracts the subset when REFERENCE_DIR names the reference's directory (CI does).
const REFERENCE = fileURLToPath(new URL('../fixtures/reference/grid-openapi-subset.json', import.meta.url));

type Call = (...args: unknown[]) => Promise<{ status: number; data: Record<string, unknown> }>;
type Client = Record<string, Record<string, Call>>;

let t: TestApp;
let dir: string;
let Api: new (config: object) => Client;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'grid-sdk-'));
  await generateApi({
    input: REFERENCE,
    output: dir,
    fileName: 'client.ts',
    httpClientType: 'fetch',
    toJS: true,
    silent: true,
  });
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  ({ Api } = (await import(pathToFileURL(path.join(dir, 'client.js')).href)) as { Api: typeof Api });
}, 180_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The generated operation `operationId`, wherever the generator put it (modules by first path segment). */
function operation(api: Client, operationId: string): Call {
  for (const module of Object.values(api)) {
    if (module && typeof module === 'object' && typeof module[operationId] === 'function')
      return module[operationId].bind(module);
  }
  throw new Error(`the generated client has no ${operationId}`);
}

it('moves money with the reference’s operations: getExchangeRates, createQuote, executeQuote, getTransactionById, listTransactions, createTransferOut, createTransferIn', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 100_000);
  const address = t.app.getHttpServer().address() as { port: number };
  const api = new Api({
    baseUrl: `http://127.0.0.1:${address.port}${V}`,
    baseApiParams: { headers: { Authorization: p.authorization } },
  });

  const rates = await operation(api, 'getExchangeRates')({ sourceCurrency: 'USD', destinationCurrency: ['EUR'] });
  expect(rates.status).toBe(200);
  expect((rates.data.data as Array<{ exchangeRate: number }>)[0].exchangeRate).toBe(0.92);

  const quote = await operation(
    api,
    'createQuote',
  )({
    source: { sourceType: 'ACCOUNT', accountId: a.accountId },
    destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 10_000,
    description: 'SDK payout',
  });
  expect(quote.status).toBe(201);
  const executed = await operation(api, 'executeQuote')(quote.data.id, {});
  expect(executed.status).toBe(200);
  expect(executed.data.status).toBe('PROCESSING');

  const transaction = await operation(api, 'getTransactionById')(quote.data.transactionId);
  expect(transaction.data).toMatchObject({ type: 'OUTGOING', status: 'PENDING', quoteId: quote.data.id });

  const out = await operation(
    api,
    'createTransferOut',
  )({
    source: { accountId: a.accountId },
    destination: { accountId: a.externalAccountId },
    amount: 2_000,
  });
  expect(out.status).toBe(201);
  const inn = await operation(
    api,
    'createTransferIn',
  )({
    source: { accountId: a.externalAccountId },
    destination: { accountId: a.accountId },
    amount: 500,
  });
  expect(inn.status).toBe(201);

  const list = await operation(api, 'listTransactions')({ customerId: a.customer.id });
  expect(list.status).toBe(200);
  expect((list.data.data as Array<{ type: string }>).map((x) => x.type)).toEqual(['INCOMING', 'OUTGOING', 'OUTGOING']);
  expect(await a.balance()).toBe(100_000 - 10_000 - 2_000 + 500);

  // A quote funded from outside: paymentInstructions, then sandbox.sendFunds (operation sandboxSend).
  const funded = await operation(
    api,
    'createQuote',
  )({
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: a.customer.id },
    destination: { destinationType: 'ACCOUNT', accountId: a.accountId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1_500,
  });
  expect(funded.status).toBe(201);
  expect((funded.data.paymentInstructions as unknown[]).length).toBe(1);
  const sent = await operation(
    api,
    'sandboxSend',
  )({ quoteId: funded.data.id, currencyCode: 'USD', currencyAmount: 1_500 });
  expect(sent.status).toBe(200);
  expect(sent.data).toMatchObject({ id: funded.data.transactionId, status: 'COMPLETED' });
  expect(await a.balance()).toBe(100_000 - 10_000 - 2_000 + 500 + 1_500);
});

it('receives money with the reference’s operations: sandboxReceive (sandbox.uma.receivePayment), approvePendingPayment, rejectPendingPayment', async () => {
  const p = await TestPlatform.create(t);
  const receiver = await WebhookReceiver.start();
  try {
    receiver.setDefault({ status: 202 }); // the platform decides through approve / reject
    expect((await p.patch('/config', { webhookEndpoint: receiver.url })).status).toBe(200);
    const customer = await kycApprovedCustomer(p);
    const address = t.app.getHttpServer().address() as { port: number };
    const api = new Api({
      baseUrl: `http://127.0.0.1:${address.port}${V}`,
      baseApiParams: { headers: { Authorization: p.authorization } },
    });
    const receive = operation(api, 'sandboxReceive');
    const body = {
      senderUmaAddress: '$success.usd@sandbox.grid.uma.money',
      receiverUmaAddress: customer.umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 1_000,
    };

    const first = await receive(body);
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ type: 'INCOMING', status: 'PENDING', receivedAmount: { amount: 1_000 } });
    const approved = await operation(api, 'approvePendingPayment')(first.data.id, {});
    expect(approved.status).toBe(200);
    expect(approved.data).toMatchObject({ id: first.data.id, status: 'COMPLETED' });

    const second = await receive(body);
    const rejected = await operation(api, 'rejectPendingPayment')(second.data.id, {
      reason: 'RESTRICTED_JURISDICTION',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.data).toMatchObject({ id: second.data.id, status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });

    // The generated client throws on a non-2xx answer: the 409 reaches it with the spec's error body.
    const again = (await operation(api, 'approvePendingPayment')(second.data.id, {}).catch((e: unknown) => e)) as {
      status: number;
      error: { code: string };
    };
    expect({ status: again.status, code: again.error.code }).toEqual({
      status: 409,
      code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    });
    expect((await customerAccount(p, customer.id)).balance.amount).toBe(1_000);
  } finally {
    await receiver.stop();
  }
});

it('speaks UMA with the reference’s operations: lookupUma (receiver.lookupUma), getAvailableUmaProviders (umaProviders.list), createInvitation, getInvitation, claimInvitation, cancelInvitation', async () => {
  const address = t.app.getHttpServer().address() as { port: number };
  const domain = `localhost:${address.port}`;
  const p = await TestPlatform.create(t);
  // The receiver: a customer of another platform of this deployment, reached over UMA like any other.
  const q = await TestPlatform.create(t);
  await supportCurrencies(q, ['USD', 'EUR']);
  const suffix = Math.random().toString(36).slice(2, 10);
  const receiver = await kycApprovedCustomer(q, individual({ umaAddress: `$sdkbob${suffix}@${domain}` }));
  const sender = await kycApprovedCustomer(p, individual({ umaAddress: `$sdkalice${suffix}@${domain}` }));
  const api = new Api({
    baseUrl: `http://127.0.0.1:${address.port}${V}`,
    baseApiParams: { headers: { Authorization: p.authorization } },
  });

  const lookup = await operation(api, 'lookupUma')(receiver.umaAddress, { customerId: sender.id });
  expect(lookup.status).toBe(200);
  expect(lookup.data).toMatchObject({
    receiverUmaAddress: receiver.umaAddress,
    lookupId: expect.stringMatching(/^Lookup:/) as unknown,
  });
  const codes = (lookup.data.supportedCurrencies as Array<{ currency: { code: string } }>).map((c) => c.currency.code);
  expect(codes.sort()).toEqual(['EUR', 'USD']);

  const providers = await operation(api, 'getAvailableUmaProviders')({});
  expect(providers.status).toBe(200);
  expect((providers.data.data as Array<{ domain: string }>).map((x) => x.domain)).toContain(domain);

  const created = await operation(api, 'createInvitation')({ inviterUma: sender.umaAddress, amountToSend: 500 });
  expect(created.status).toBe(201);
  expect(created.data).toMatchObject({ status: 'PENDING', inviterUma: sender.umaAddress });
  const code = created.data.code as string;
  const read = await operation(api, 'getInvitation')(code);
  expect([read.status, read.data]).toEqual([200, created.data]);
  const claimed = await operation(api, 'claimInvitation')(code, { inviteeUma: receiver.umaAddress });
  expect(claimed.status).toBe(200);
  expect(claimed.data).toMatchObject({ code, status: 'CLAIMED', inviteeUma: receiver.umaAddress });

  const other = await operation(api, 'createInvitation')({ inviterUma: sender.umaAddress });
  const cancelled = await operation(api, 'cancelInvitation')(other.data.code);
  expect(cancelled.status).toBe(200);
  expect(cancelled.data).toMatchObject({ code: other.data.code, status: 'CANCELLED' });
  // The generated client throws on a non-2xx answer: the spec's error body reaches it.
  const refused = (await operation(api, 'claimInvitation')(other.data.code, { inviteeUma: receiver.umaAddress }).catch(
    (e: unknown) => e,
  )) as { status: number; error: { code: string } };
  expect({ status: refused.status, code: refused.error.code }).toEqual({ status: 400, code: 'INVITATION_CANCELLED' });
});
