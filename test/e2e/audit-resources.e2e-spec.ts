import { generateP256KeyPair } from '@turnkey/crypto';
import { listRoutes } from '../../src/route-order.js';
import { spendingAgent, type Json } from '../support/agent-quotes.js';
import { newAgent, redeem } from '../support/agents.js';
import { authorization, cardWithFunds } from '../support/card-transactions.js';
import { cardBody, issuedCard, postCard } from '../support/cards.js';
import { individual } from '../support/customers.js';
import { customerAccount, kycApprovedCustomer, newCustomer, usdAccountBody } from '../support/fixtures.js';
import { customerExternalAccount } from '../support/agent-quotes.js';
import {
  newDocument,
  newPaymentDocument,
  ownerBody,
  samplePdf,
  uploadDocument,
  uploadPaymentDocument,
} from '../support/documents.js';
import { payer } from '../support/payments.js';
import { activeCard } from '../support/cards.js';
import { totpCode } from '../support/totp.js';
import { business } from '../support/customers.js';
import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { BulkImportService } from '../../src/bulk-import/bulk-import.service.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { StablecoinOperationsWorker } from '../../src/stablecoins/stablecoin-operations.worker.js';
import {
  bankAccount,
  burnBody,
  credentials,
  issuer,
  keyed,
  linkProvider,
  registerCoin,
  sparkToken,
  wireMint,
} from '../support/stablecoins.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  newTestWallet,
  newWalletKey,
  sealOtp,
  send,
  signedHeaders,
  stamp,
  walletWithSession,
} from '../support/wallet-client.js';

/**
 * Issue 33: every change's audit event names the resources it created or changed, whether or not
 * it writes an outbox event, so `GET /audit-events?resourceId=` finds "who created this, from
 * where". One case per POST route of the app (the route table): a new POST route fails the
 * coverage test until it has a case here.
 */
let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX: 'true' }); // every route mounted
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await t.close();
});

interface Answer {
  status: number;
  body: Json;
  headers: Record<string, string | string[] | undefined>;
}

/** What a case did: the answer of the route under test and the ids its audit event must name. */
interface Made {
  res: Answer;
  ids: string[];
}

type Case = (p: TestPlatform) => Promise<Made>;

const ok = (res: Answer, what: string): Answer => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

async function agentQuote(p: TestPlatform) {
  const agent = await spendingAgent(p);
  return { agent, quote: await agent.quote(100) };
}

/** An incoming payment from a sandbox sender, awaiting the platform's decision (no webhook endpoint set). */
async function umaReceive(p: TestPlatform): Promise<Answer> {
  const customer = await kycApprovedCustomer(p);
  return ok(
    await p.post('/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.grid.uma.money',
      customerId: customer.id,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 100,
    }),
    'sandbox UMA receive',
  );
}

/** An agent action waiting for approval. */
async function pendingAction(p: TestPlatform) {
  const agent = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
  const quote = await agent.quote(1000);
  const res = ok(await agent.client.post(`/agents/me/quotes/${quote.id}/execute`), 'execute');
  expect(res.body.status).toBe('PENDING_APPROVAL');
  return { agent, action: res.body, quote };
}

/** The simulations keyed by the card and a merchant (an authorization-family message, no transaction). */
const KEYED_BY_CARD = new Set([
  'authorization',
  'credit_authorization',
  'financial_authorization',
  'financial_credit_authorization',
  'credit_authorization_advice',
]);

function simulation(kind: string): Case {
  return async (p) => {
    const card = await cardWithFunds(p, 100_000);
    if (KEYED_BY_CARD.has(kind) || kind === 'balance_inquiry') {
      const body = kind === 'balance_inquiry' ? { merchant: authorization(1).merchant } : authorization(1000);
      const res = await p.post(`/sandbox/cards/${card.id}/simulate/${kind}`, body);
      return { res, ids: [card.id, res.body.cardTransaction?.id as string] };
    }
    const auth = ok(
      await p.post(`/sandbox/cards/${card.id}/simulate/authorization`, authorization(1000)),
      'authorization',
    );
    const ref = { cardTransactionId: auth.body.cardTransaction.id as string };
    if (kind === 'return' || kind === 'return_reversal')
      ok(await p.post(`/sandbox/cards/${card.id}/simulate/clearing`, { ...ref, amount: 1000 }), 'clear');
    if (kind === 'return_reversal') {
      const ret = ok(await p.post(`/sandbox/cards/${card.id}/simulate/return`, { ...ref, amount: 500 }), 'return');
      ref.cardTransactionId = ret.body.cardTransaction.id as string;
    }
    const body =
      kind === 'return'
        ? { ...ref, amount: 500 }
        : kind === 'clearing'
          ? { ...ref, amount: 1000 }
          : kind === 'authorization_advice'
            ? { ...ref, amount: 1500 }
            : ref;
    const res = await p.post(`/sandbox/cards/${card.id}/simulate/${kind}`, body);
    return { res, ids: [card.id, res.body.cardTransaction?.id as string] };
  };
}

/** The answer of a call made with supertest directly (multipart, public routes). */
const answer = (res: { status: number; body: unknown; headers: Record<string, unknown> }): Answer => ({
  status: res.status,
  body: res.body as Json,
  headers: res.headers as Answer['headers'],
});

/** SCA (docs/sca.md): an EU customer (SCA region) with a phone for SMS_OTP (sandbox code 123456). */
const FR_ADDRESS = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
const euCustomer = (p: TestPlatform) =>
  kycApprovedCustomer(p, individual({ address: FR_ADDRESS, nationality: 'FR', phoneNumber: '+33612345678' }));
const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`;
const SMS = '123456';

async function smsLogin(p: TestPlatform, customerId: string): Promise<void> {
  const start = ok(await p.post(`/sca/login/start${q(customerId)}`, { factor: 'SMS_OTP' }), 'login start');
  ok(
    await p.post(`/sca/login/complete${q(customerId)}`, {
      factor: 'SMS_OTP',
      challengeId: start.body.challengeId,
      code: SMS,
      endUserIpAddress: '203.0.113.42',
    }),
    'login complete',
  );
}

/** An EU customer's EUR external account, trusted when `trusted`. */
async function euBeneficiary(p: TestPlatform, trusted = false) {
  const customer = await euCustomer(p);
  const created = ok(
    await p.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'EUR',
      accountInfo: exampleAccountInfo('EUR_ACCOUNT', 3),
    }),
    'external account',
  );
  const account = created.body.id as string;
  if (trusted) {
    const start = ok(await p.post(`/customers/external-accounts/${account}/trust`), 'trust');
    ok(
      await p.post(`/customers/external-accounts/${account}/trust/confirm`, {
        challengeId: start.body.scaChallenge.id,
        code: SMS,
      }),
      'trust confirm',
    );
  }
  return { customer, account };
}

/** A beneficiary trust change started and confirmed (the confirm is under test). */
function trustConfirm(trust: boolean): Case {
  return async (p) => {
    const { account } = await euBeneficiary(p, !trust);
    const verb = trust ? 'trust' : 'untrust';
    const start = ok(await p.post(`/customers/external-accounts/${account}/${verb}`), verb);
    const res = await p.post(`/customers/external-accounts/${account}/${verb}/confirm`, {
      challengeId: start.body.scaChallenge.id,
      code: SMS,
    });
    return { res, ids: [account] };
  };
}

/** A FIRST_PARTY wallet awaiting ownership verification (the platform's or a customer's), challenged when `verify`. */
function ownership(scope: 'platform' | 'customers', verify: boolean): Case {
  return async (p) => {
    ok(await p.patch('/config', { counterpartyRequirements: true }), 'counterparty requirements');
    const signer = privateKeyToAccount(generatePrivateKey());
    const owner = scope === 'customers' ? { customerId: (await newCustomer(p)).id } : {};
    const created = ok(
      await p.post(`/${scope}/external-accounts`, {
        ...owner,
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: { accountType: 'ETHEREUM_WALLET', address: signer.address },
      }),
      'wallet',
    );
    const path = `/${scope}/external-accounts/${created.body.id}`;
    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    if (!verify) return { res: challenge, ids: [created.body.id] };
    const signature = await signer.signMessage({ message: ok(challenge, 'challenge').body.messageToSign });
    return { res: await p.post(`${path}/verify`, { signature }), ids: [created.body.id] };
  };
}

function trustStart(trust: boolean): Case {
  return async (p) => {
    const { account } = await euBeneficiary(p, !trust);
    const res = await p.post(`/customers/external-accounts/${account}/${trust ? 'trust' : 'untrust'}`);
    return { res, ids: [account, res.body.scaChallenge?.id] };
  };
}

/** A UMA invitation of a customer with a UMA address on this app's domain. */
async function invitation(p: TestPlatform): Promise<string> {
  const { port } = t.app.getHttpServer().address() as { port: number };
  const inviter = await newCustomer(
    p,
    individual({ umaAddress: `$inviter${crypto.randomUUID().slice(0, 8)}@localhost:${port}` }),
  );
  const res = ok(await p.post('/invitations', { inviterUma: inviter.umaAddress }), 'invitation');
  return res.body.code as string;
}

/** A KYC link's hosted page path (public). */
async function kycPage(p: TestPlatform) {
  const customer = await newCustomer(p);
  const link = ok(await p.post(`/customers/${customer.id}/kyc-link`, {}), 'kyc link');
  return { customer, path: new URL(link.body.kycUrl as string).pathname };
}

function hostedKyc(decision: 'approve' | 'reject'): Case {
  return async (p) => {
    const { customer, path } = await kycPage(p);
    const res = answer(await t.http.post(`${path}/${decision}`));
    const [verification] = (await p.get(`/verifications?customerId=${customer.id}`)).body.data as Json[];
    return { res, ids: [customer.id, verification?.id] };
  };
}

const BULK_HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName,businessTaxId,businessIncorporatedOn';

/** A quote of a customer in an SCA region (France), waiting for its authorization. */
async function euQuote(p: TestPlatform): Promise<Json> {
  const address = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
  const customer = await kycApprovedCustomer(p, individual({ address, phoneNumber: '+33612345678' }));
  const a = await payer(p, 10_000, { customer });
  return a.quote(1_000);
}

/** Every POST route of the app (path as Express registers it) and how to exercise it. */
const CASES: Record<string, Case> = {
  [`POST ${V}/tokens`]: async (p) => {
    const res = await p.post('/tokens', { name: 'audited', permissions: ['VIEW'] });
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/customers`]: async (p) => {
    const res = await p.post('/customers', individual());
    const account = res.status === 201 ? await customerAccount(p, res.body.id) : { id: 'none' };
    return { res, ids: [res.body.id, account.id] }; // the customer and the accounts opened with it
  },
  [`POST ${V}/customers/external-accounts`]: async (p) => {
    const customer = await newCustomer(p);
    const id = await customerExternalAccount(p, customer);
    const [event] = await eventsOf(p, id);
    return { res: { status: 201, body: { id }, headers: { 'x-request-id': event?.requestId ?? '' } }, ids: [id] };
  },
  [`POST ${V}/platform/external-accounts`]: async (p) => {
    const res = await p.post('/platform/external-accounts', usdAccountBody());
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/internal-accounts/:id/export`]: async (p) => {
    const w = await walletWithSession(p);
    const body = { clientPublicKey: generateP256KeyPair().publicKeyUncompressed };
    const first = await send(p, 'post', `/internal-accounts/${w.accountId}/export`, body);
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'post',
      `/internal-accounts/${w.accountId}/export`,
      body,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [w.accountId] };
  },
  [`POST ${V}/auth/delegated-keys`]: async (p) => {
    const { res } = await delegatedKey(p);
    return { res, ids: [res.body.id as string] };
  },
  [`POST ${V}/cards`]: async (p) => {
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    const res = await postCard(p, cardBody(customer.id, account.id));
    return { res, ids: [res.body.id, customer.id] };
  },
  [`POST ${V}/sandbox/cards/:id/simulate/provisioning`]: async (p) => {
    const { card } = await issuedCard(p);
    const res = await p.post(`/sandbox/cards/${card.id}/simulate/provisioning`, { outcome: 'ACTIVE' });
    return { res, ids: [card.id] };
  },
  [`POST ${V}/sandbox/cards/:id/simulate/authorization`]: simulation('authorization'),
  [`POST ${V}/sandbox/cards/:id/simulate/clearing`]: simulation('clearing'),
  [`POST ${V}/sandbox/cards/:id/simulate/return`]: simulation('return'),
  [`POST ${V}/sandbox/cards/:id/simulate/authorization_reversal`]: simulation('authorization_reversal'),
  [`POST ${V}/sandbox/cards/:id/simulate/authorization_expiry`]: simulation('authorization_expiry'),
  [`POST ${V}/sandbox/cards/:id/simulate/balance_inquiry`]: simulation('balance_inquiry'),
  [`POST ${V}/sandbox/cards/:id/simulate/credit_authorization`]: simulation('credit_authorization'),
  [`POST ${V}/sandbox/cards/:id/simulate/financial_authorization`]: simulation('financial_authorization'),
  [`POST ${V}/sandbox/cards/:id/simulate/financial_credit_authorization`]: simulation('financial_credit_authorization'),
  [`POST ${V}/sandbox/cards/:id/simulate/authorization_advice`]: simulation('authorization_advice'),
  [`POST ${V}/sandbox/cards/:id/simulate/credit_authorization_advice`]: simulation('credit_authorization_advice'),
  [`POST ${V}/sandbox/cards/:id/simulate/return_reversal`]: simulation('return_reversal'),
  [`POST ${V}/agents`]: async (p) => {
    const customer = await newCustomer(p);
    const res = await p.post('/agents', {
      name: 'Audited agent',
      customerId: customer.id,
      policy: { permissions: ['CREATE_QUOTES'], spendingLimits: { currency: 'USD', perTransactionLimit: 100 } },
    });
    return { res, ids: [res.body.agent?.id] };
  },
  [`POST ${V}/agents/:agentId/device-codes`]: async (p) => {
    const { agent } = await newAgent(p);
    const res = await p.post(`/agents/${agent.id}/device-codes`);
    return { res, ids: [agent.id] };
  },
  [`POST ${V}/agents/device-codes/:code/redeem`]: async (p) => {
    const { agent, deviceCode } = await newAgent(p);
    const res = await redeem(p, deviceCode.code);
    return { res, ids: [agent.id] };
  },
  [`POST ${V}/agents/me/quotes`]: async (p) => {
    const { quote } = await agentQuote(p);
    const [event] = await eventsOf(p, quote.id as string);
    return {
      res: { status: 201, body: quote, headers: { 'x-request-id': event?.requestId ?? '' } },
      ids: [quote.id],
    };
  },
  [`POST ${V}/agents/me/quotes/:quoteId/execute`]: async (p) => {
    const { agent, quote } = await agentQuote(p);
    const res = await agent.client.post(`/agents/me/quotes/${quote.id}/execute`);
    return { res, ids: [quote.id, res.body.id, quote.transactionId ?? res.body.transactionId] };
  },
  [`POST ${V}/customers/:customerId/verify-email`]: async (p) => {
    const c = await newCustomer(p, individual({ region: 'FR' }));
    const res = await p.post(`/customers/${c.id}/verify-email`);
    return { res, ids: [c.id] };
  },
  [`POST ${V}/customers/:customerId/verify-email/confirm`]: async (p) => {
    const c = await newCustomer(p, individual({ region: 'FR' }));
    ok(await p.post(`/customers/${c.id}/verify-email`), 'send');
    const res = await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/customers/:customerId/verify-phone`]: async (p) => {
    const c = await newCustomer(p, individual({ region: 'FR' }));
    const res = await p.post(`/customers/${c.id}/verify-phone`);
    return { res, ids: [c.id] };
  },
  [`POST ${V}/customers/:customerId/verify-phone/confirm`]: async (p) => {
    const c = await newCustomer(p, individual({ region: 'FR' }));
    ok(await p.post(`/customers/${c.id}/verify-phone`), 'send');
    const res = await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: '123456' });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/agents/me/transfer-out`]: async (p) => {
    const agent = await spendingAgent(p, { permissions: ['CREATE_TRANSFERS'] });
    const res = await agent.client.post('/agents/me/transfer-out', {
      source: { accountId: agent.accountId },
      destination: { accountId: agent.externalAccountId },
      amount: 1000,
    });
    return { res, ids: [res.body.id, res.body.transaction?.id] };
  },
  [`POST ${V}/agents/me/transfer-in`]: async (p) => {
    const agent = await spendingAgent(p, { permissions: ['CREATE_TRANSFERS'] }, 0);
    const res = await agent.client.post('/agents/me/transfer-in', {
      source: { accountId: agent.externalAccountId },
      destination: { accountId: agent.accountId },
      amount: 1000,
    });
    return { res, ids: [res.body.id, res.body.transaction?.id] };
  },
  [`POST ${V}/agents/:agentId/actions/:actionId/approve`]: async (p) => {
    const { agent, action, quote } = await pendingAction(p);
    const res = await p.post(`/agents/${agent.agent.id}/actions/${action.id}/approve`);
    return { res, ids: [action.id, quote.id, quote.transactionId ?? res.body.transactionId] };
  },
  [`POST ${V}/agents/:agentId/actions/:actionId/reject`]: async (p) => {
    const { agent, action } = await pendingAction(p);
    const res = await p.post(`/agents/${agent.agent.id}/actions/${action.id}/reject`, { reason: 'no' });
    return { res, ids: [action.id] };
  },
  [`POST ${V}/agents/me/external-accounts`]: async (p) => {
    const agent = await spendingAgent(p, { permissions: ['CREATE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] }, 0);
    const res = await agent.client.post('/agents/me/external-accounts', {
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '98765432101',
        routingNumber: '123456789',
        bankAccountType: 'CHECKING',
        bankName: 'Chase Bank',
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'John Doe',
          birthDate: '1990-01-15',
          nationality: 'US',
        },
      },
    });
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/quotes/:quoteId/authorize`]: async (p) => {
    const quote = await euQuote(p);
    const res = await p.post(`/quotes/${quote.id}/authorize`, { code: '123456' });
    return { res, ids: [quote.id] };
  },
  [`POST ${V}/quotes/:quoteId/authorize/resend`]: async (p) => {
    const quote = await euQuote(p);
    ok(await p.post('/sandbox/clock/advance', { seconds: 30 }), 'clock advance'); // a code is re-sent 30 s after the last send
    const res = await p.post(`/quotes/${quote.id}/authorize/resend`);
    return { res, ids: [quote.id] };
  },
  [`POST ${V}/sandbox/customers/:customerId/kyc`]: async (p) => {
    const customer = await newCustomer(p);
    const res = await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' });
    return { res, ids: [customer.id] };
  },
  [`POST ${V}/sandbox/send`]: async (p) => {
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    const quote = ok(
      await p.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id },
        destination: { destinationType: 'ACCOUNT', accountId: account.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      }),
      'quote',
    );
    const res = await p.post('/sandbox/send', { quoteId: quote.body.id, currencyCode: 'USD' });
    return { res, ids: [quote.body.id, quote.body.transactionId] };
  },
  [`POST ${V}/sandbox/internal-accounts/:accountId/fund`]: async (p) => {
    const customer = await newCustomer(p);
    const account = await customerAccount(p, customer.id);
    const res = await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 100 });
    return { res, ids: [account.id] };
  },
  [`POST ${V}/sandbox/external-accounts/:externalAccountId/status`]: async (p) => {
    const created = ok(await p.post('/platform/external-accounts', usdAccountBody()), 'external account');
    const id = created.body.id as string;
    const res = await p.post(`/sandbox/external-accounts/${id}/status`, { status: 'INACTIVE' });
    return { res, ids: [id] };
  },
  [`POST ${V}/sandbox/clock/advance`]: async (p) => {
    const res = await p.post('/sandbox/clock/advance', { seconds: 60 });
    const advances = await p.get('/sandbox/clock/advances');
    return { res, ids: [(advances.body as Json).data[0].id] };
  },
  [`POST ${V}/config/webhook-secret/rotate`]: async (p) => {
    const res = await p.post('/config/webhook-secret/rotate');
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/sandbox/webhooks/test`]: async (p) => {
    const config = ok(await p.patch('/config', { webhookEndpoint: receiver.url }), 'PATCH /config');
    const res = await p.post('/sandbox/webhooks/test');
    return { res, ids: [config.body.id] };
  },
  [`POST ${V}/webhooks/test`]: async (p) => {
    const config = ok(await p.patch('/config', { webhookEndpoint: receiver.url }), 'PATCH /config');
    const res = await p.post('/webhooks/test');
    return { res, ids: [config.body.id] };
  },
  [`POST ${V}/webhook-events/:eventId/redeliver`]: async (p) => {
    ok(await p.patch('/config', { webhookEndpoint: receiver.url }), 'PATCH /config');
    const events = ok(await p.get('/webhook-events'), 'webhook events');
    const id = (events.body.data as Json[])[0].id as string;
    const res = await p.post(`/webhook-events/${id}/redeliver`).set('Idempotency-Key', crypto.randomUUID());
    return { res, ids: [id] };
  },
  [`POST ${V}/quotes`]: async (p) => {
    const a = await payer(p, 10_000);
    const quote = await a.quote(1000);
    const [event] = await eventsOf(p, quote.id as string);
    return { res: { status: 201, body: quote, headers: { 'x-request-id': event?.requestId ?? '' } }, ids: [quote.id] };
  },
  [`POST ${V}/quotes/:quoteId/execute`]: async (p) => {
    const a = await payer(p, 10_000);
    const quote = await a.quote(1000);
    const res = await p.post(`/quotes/${quote.id}/execute`);
    return { res, ids: [quote.id, quote.transactionId ?? res.body.transactionId] };
  },
  [`POST ${V}/sandbox/uma/receive`]: async (p) => {
    const res = await umaReceive(p);
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/transactions/:transactionId/approve`]: async (p) => {
    const id = (await umaReceive(p)).body.id as string;
    const res = await p.post(`/transactions/${id}/approve`, {});
    return { res, ids: [id] };
  },
  [`POST ${V}/transactions/:transactionId/reject`]: async (p) => {
    const id = (await umaReceive(p)).body.id as string;
    const res = await p.post(`/transactions/${id}/reject`, { reason: 'test' });
    return { res, ids: [id] };
  },
  [`POST ${V}/transactions/:transactionId/cancel`]: async (p) => {
    const a = await payer(p, 10_000);
    const quote = await a.quote(1000);
    const executed = await a.execute(quote.id as string);
    const id = (quote.transactionId ?? executed.transactionId) as string;
    const res = await p.post(`/transactions/${id}/cancel`, {});
    return { res, ids: [id] };
  },
  [`POST ${V}/transactions/:transactionId/confirm`]: async (p) => {
    const a = await payer(p, 10_000);
    const quote = await a.quote(1000);
    const executed = await a.execute(quote.id as string);
    const id = (quote.transactionId ?? executed.transactionId) as string;
    const res = await p.post(`/transactions/${id}/confirm`, {});
    return { res, ids: [id] };
  },
  [`POST ${V}/transfer-out`]: async (p) => {
    const a = await payer(p, 10_000);
    const res = await p.post('/transfer-out', {
      source: { accountId: a.accountId },
      destination: { accountId: a.externalAccountId, paymentRail: 'ACH' },
      amount: 2500,
    });
    return { res, ids: [res.body.id, res.body.quoteId] };
  },
  [`POST ${V}/transfer-in`]: async (p) => {
    const a = await payer(p, 10_000);
    const res = await p.post('/transfer-in', {
      source: { accountId: a.externalAccountId },
      destination: { accountId: a.accountId },
      amount: 1200,
    });
    return { res, ids: [res.body.id, a.accountId] };
  },
  [`POST ${V}/documents`]: async (p) => {
    const customer = await newCustomer(p);
    const res = answer(
      await uploadDocument(p, { documentHolder: customer.id, documentType: 'PASSPORT', country: 'US' }, samplePdf()),
    );
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/payment-documents`]: async (p) => {
    const customer = await newCustomer(p);
    const res = answer(await uploadPaymentDocument(p, { customerId: customer.id, documentType: 'INVOICE' }));
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/beneficial-owners`]: async (p) => {
    const owner = await newCustomer(p, business());
    const res = await p.post('/beneficial-owners', ownerBody(owner.id));
    return { res, ids: [res.body.id, owner.id] };
  },
  [`POST ${V}/verifications`]: async (p) => {
    const customer = await newCustomer(p);
    const res = await p.post('/verifications', { customerId: customer.id });
    return { res, ids: [res.body.id, customer.id] };
  },
  [`POST ${V}/sandbox/verifications/:verificationId/complete`]: async (p) => {
    const customer = await newCustomer(p);
    await newDocument(p, customer.id, 'PASSPORT');
    const v = ok(await p.post('/verifications', { customerId: customer.id }), 'verification');
    const res = await p.post(`/sandbox/verifications/${v.body.id}/complete`, { verificationStatus: 'APPROVED' });
    return { res, ids: [v.body.id, customer.id] };
  },
  [`POST ${V}/customers/:customerId/kyc-link`]: async (p) => {
    const customer = await newCustomer(p);
    const res = await p.post(`/customers/${customer.id}/kyc-link`, {});
    return { res, ids: [customer.id] };
  },
  [`POST ${V}/sandbox/kyc/:token/approve`]: hostedKyc('approve'),
  [`POST ${V}/sandbox/kyc/:token/reject`]: hostedKyc('reject'),
  [`POST ${V}/customers/bulk/csv`]: async (p) => {
    const csv = `${BULK_HEADER}\naudit@uma.domain.com,c-1,INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US,,\n`;
    const res = answer(
      await t.http
        .post(`${V}/customers/bulk/csv`)
        .set('Authorization', p.authorization)
        .attach('file', Buffer.from(csv), { filename: 'customers.csv', contentType: 'text/csv' }),
    );
    if (typeof res.body.jobId === 'string') await t.app.get(BulkImportService).settled(res.body.jobId.split(':')[1]);
    return { res, ids: [res.body.jobId] };
  },
  [`POST ${V}/invitations`]: async (p) => {
    const code = await invitation(p);
    const [event] = await eventsOf(p, `Invitation:${code}`);
    return {
      res: { status: 201, body: { code }, headers: { 'x-request-id': event?.requestId ?? '' } },
      ids: [`Invitation:${code}`],
    };
  },
  [`POST ${V}/invitations/:invitationCode/claim`]: async (p) => {
    const code = await invitation(await TestPlatform.create(t)); // another platform's invitation
    const res = await p.post(`/invitations/${code}/claim`, { inviteeUma: '$friend@example.com' });
    return { res, ids: [`Invitation:${code}`] };
  },
  [`POST ${V}/invitations/:invitationCode/cancel`]: async (p) => {
    const code = await invitation(p);
    const res = await p.post(`/invitations/${code}/cancel`);
    return { res, ids: [`Invitation:${code}`] };
  },
  [`POST ${V}/sca/factors`]: async (p) => {
    const c = await euCustomer(p);
    const res = await p.post(`/sca/factors${q(c.id)}`, { type: 'TOTP' });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/sca/factors/confirm`]: async (p) => {
    const c = await euCustomer(p);
    const start = ok(await p.post(`/sca/factors${q(c.id)}`, { type: 'TOTP' }), 'enroll');
    const secret = start.body.secret as string;
    const res = await p.post(`/sca/factors/confirm${q(c.id)}`, { type: 'TOTP', secret, code: await totpCode(secret) });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/sca/factors/reset`]: async (p) => {
    const c = await euCustomer(p);
    const res = await p.post(`/sca/factors/reset${q(c.id)}`, { factor: 'SMS_OTP' });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/sca/factors/reset/:resetId/complete`]: async (p) => {
    const c = await euCustomer(p);
    const start = ok(await p.post(`/sca/factors/reset${q(c.id)}`, { factor: 'SMS_OTP' }), 'reset');
    const res = await p.post(`/sca/factors/reset/${start.body.resetId}/complete${q(c.id)}`);
    return { res, ids: [c.id] };
  },
  [`POST ${V}/auth/credentials`]: async (p) => {
    const w = await walletWithSession(p, { phoneNumber: '+14155550199' });
    const body = { type: 'SMS_OTP', accountId: w.accountId };
    const first = ok(await p.post('/auth/credentials', body), 'create credential');
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'post',
      '/auth/credentials',
      body,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [res.body.id as string] };
  },
  [`POST ${V}/auth/sessions/:id/refresh`]: async (p) => {
    const w = await walletWithSession(p);
    const body = { clientPublicKey: newWalletKey().publicKey };
    const first = ok(await p.post(`/auth/sessions/${w.session.id}/refresh`, body), 'refresh');
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'post',
      `/auth/sessions/${w.session.id}/refresh`,
      body,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [res.body.id as string, w.session.id] };
  },
  [`POST ${V}/auth/credentials/:id/challenge`]: async (p) => {
    const w = await newTestWallet(p);
    const res = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    return { res, ids: [w.credentialId] };
  },
  [`POST ${V}/auth/credentials/:id/verify`]: async (p) => {
    const w = await newTestWallet(p);
    const key = newWalletKey();
    const challenge = ok(await p.post(`/auth/credentials/${w.credentialId}/challenge`, {}), 'challenge');
    const body = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', challenge.body.otpEncryptionTargetBundle as string, key),
    };
    const first = ok(await p.post(`/auth/credentials/${w.credentialId}/verify`, body), 'verify');
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'post',
      `/auth/credentials/${w.credentialId}/verify`,
      body,
      signedHeaders(await stamp(key, payloadToSign), requestId),
    );
    return { res, ids: [res.body.id as string] };
  },
  [`POST ${V}/sca/login/start`]: async (p) => {
    const c = await euCustomer(p);
    const res = await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' });
    return { res, ids: [c.id, res.body.challengeId] };
  },
  [`POST ${V}/sca/login/complete`]: async (p) => {
    const c = await euCustomer(p);
    const start = ok(await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' }), 'login start');
    const res = await p.post(`/sca/login/complete${q(c.id)}`, {
      factor: 'SMS_OTP',
      challengeId: start.body.challengeId,
      code: SMS,
      endUserIpAddress: '203.0.113.42',
    });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/sca/record-event`]: async (p) => {
    const c = await euCustomer(p);
    const res = await p.post(`/sca/record-event${q(c.id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    return { res, ids: [c.id] };
  },
  [`POST ${V}/customers/external-accounts/:externalAccountId/trust`]: trustStart(true),
  [`POST ${V}/customers/external-accounts/:externalAccountId/untrust`]: trustStart(false),
  [`POST ${V}/customers/external-accounts/:externalAccountId/trust/confirm`]: trustConfirm(true),
  [`POST ${V}/customers/external-accounts/:externalAccountId/untrust/confirm`]: trustConfirm(false),
  [`POST ${V}/customers/external-accounts/:externalAccountId/challenge`]: ownership('customers', false),
  [`POST ${V}/customers/external-accounts/:externalAccountId/verify`]: ownership('customers', true),
  [`POST ${V}/platform/external-accounts/:externalAccountId/challenge`]: ownership('platform', false),
  [`POST ${V}/platform/external-accounts/:externalAccountId/verify`]: ownership('platform', true),
  [`POST ${V}/plaid/link-tokens`]: async (p) => {
    const customer = await newCustomer(p);
    return { res: await p.post('/plaid/link-tokens', { customerId: customer.id }), ids: [customer.id] };
  },
  [`POST ${V}/plaid/callback/:plaidLinkToken`]: async (p) => {
    const customer = await newCustomer(p);
    const link = ok(await p.post('/plaid/link-tokens', { customerId: customer.id }), 'link token');
    const res = await p.post(`/plaid/callback/${link.body.linkToken}`, { publicToken: 'public-sandbox-audit' });
    return { res, ids: [res.body.id, customer.id] };
  },
  [`POST ${V}/cards/:id/reveal`]: async (p) => {
    const c = await euCustomer(p);
    const { card } = await activeCard(p, { customer: c });
    await smsLogin(p, c.id);
    const res = await p.post(`/cards/${card.id}/reveal`);
    return { res, ids: [card.id] };
  },
  [`POST ${V}/stablecoin-provider-accounts`]: async (p) => {
    const res = await keyed(p, '/stablecoin-provider-accounts', credentials());
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/stablecoins`]: async (p) => {
    await linkProvider(p);
    const res = await keyed(p, '/stablecoins', {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: sparkToken(),
      network: 'SPARK',
    });
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/stablecoins/:stablecoinId/grid-operations/enablement`]: async (p) => {
    await linkProvider(p);
    const coin = await registerCoin(p);
    const res = await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`);
    return { res, ids: [coin.id] };
  },
  [`POST ${V}/stablecoins/:stablecoinId/mints`]: async (p) => {
    const { coin, wallet } = await issuer(p);
    const res = await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000'));
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/stablecoins/:stablecoinId/burns`]: async (p) => {
    const { coin, wallet } = await issuer(p);
    const mint = ok(await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000')), 'mint');
    ok(await p.post(`/sandbox/stablecoin-operations/${mint.body.id}/funds-received`), 'funds');
    const worker = t.app.get(StablecoinOperationsWorker);
    for (
      let i = 0;
      i < 10 && (await p.get(`/stablecoin-operations/${mint.body.id}`)).body.status !== 'COMPLETED';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 1100));
      await worker.runOnce({ platformId: p.platformId.split(':')[1] });
    }
    const { bank } = { bank: await bankAccount(p) };
    const res = await keyed(p, `/stablecoins/${coin.id}/burns`, burnBody(bank, '1000000'));
    return { res, ids: [res.body.id] };
  },
  [`POST ${V}/sandbox/stablecoin-operations/:stablecoinOperationId/funds-received`]: async (p) => {
    const { coin, wallet } = await issuer(p);
    const mint = ok(await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000')), 'mint');
    const res = await p.post(`/sandbox/stablecoin-operations/${mint.body.id}/funds-received`);
    return { res, ids: [mint.body.id] };
  },
  [`POST ${V}/sandbox/stablecoin-provider-accounts/:stablecoinProviderAccountId/status`]: async (p) => {
    const link = await linkProvider(p);
    const res = await p.post(`/sandbox/stablecoin-provider-accounts/${link.id}/status`, { status: 'REVOKED' });
    return { res, ids: [link.id as string] };
  },
  [`POST ${V}/sandbox/stablecoins/:stablecoinId/grid-operations-status`]: async (p) => {
    await linkProvider(p);
    const coin = await registerCoin(p);
    ok(await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`), 'request');
    const res = await p.post(`/sandbox/stablecoins/${coin.id}/grid-operations-status`, {
      gridOperationsStatus: 'ENABLING',
    });
    return { res, ids: [coin.id] };
  },
};

/**
 * POST routes that are not changes of a platform's resources; each says why (the coverage test
 * fails on a POST route in neither table).
 */
const NOT_A_RESOURCE_CHANGE: Record<string, string> = {
  [`POST ${V}/crypto/estimate-withdrawal-fee`]:
    'a fee estimate over the directories (docs/directories.md): it reads an internal account and changes nothing',
  [`POST ${V}/sandbox/oauth/token`]:
    'the sandbox OIDC issuer mints an id token: nothing is stored (the token is signed and answered, no row changes)',
  'POST /console/api/session':
    'console sign-in: not an API operation (not in the OpenAPI document, not audited); every call the session makes is audited as its token',
  'POST /console/api/attention/settlements/:transactionId/retry':
    "audited, naming the transaction: its case needs a settlement stranded between two deployments, so it lives in console-attention.e2e-spec.ts (the Needs attention page's actions, with their audit records)",
  'POST /console/api/wallet-sessions/:sessionId/revoke':
    "audited, naming the session: console-api.e2e-spec.ts (a customer's wallet) revokes a live session and reads its audit record by resourceId",
  'POST /console/api/attention/settlements/:transactionId/resolve':
    'audited, naming the transaction: console-attention.e2e-spec.ts resolves a stranded settlement and reads its audit record by resourceId',
  'POST /console/api/{*path}':
    "the console's own read-only GETs (overview, names, transaction search and CSV, a transaction's timeline and postings) are outside the API's prefix; every other method answers 404 NOT_FOUND (the route that sends it is what is listed here)",
};

async function eventsOf(p: TestPlatform, resourceId: string): Promise<Json[]> {
  const res = await p.get(`/audit-events?limit=100&resourceId=${encodeURIComponent(resourceId)}`);
  expect(res.status).toBe(200);
  return (res.body as Json).data as Json[];
}

it('every POST route of the app has a case (a new create route needs one here)', () => {
  const posts = listRoutes(t.app.getHttpAdapter().getInstance() as object)
    .filter((r) => r.methods.includes('POST') && (r.path.startsWith(`${V}/`) || r.path.startsWith('/console/')))
    .map((r) => `POST ${r.path}`);
  const missing = posts.filter((route) => !(route in CASES) && !(route in NOT_A_RESOURCE_CHANGE));
  const stale = Object.keys(CASES).filter((route) => !posts.includes(route));
  expect({ missing, stale }).toEqual({ missing: [], stale: [] });
});

describe.each(Object.keys(CASES))('%s', (route) => {
  it('its audit event is found by the id of every resource it created or changed', async () => {
    const p = await TestPlatform.create(t);
    const { res, ids } = await CASES[route](p);
    expect({ route, status: res.status }).toEqual({ route, status: expect.any(Number) });
    // the hosted KYC page's decision answers 303 (a redirect back to the platform): a success
    const success = res.status < 300 || (res.status === 303 && route.includes('/sandbox/kyc/'));
    if (!success) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
    const requestId = res.headers['x-request-id'];
    expect(typeof requestId).toBe('string');
    for (const id of ids) {
      expect(typeof id).toBe('string');
      const events = await eventsOf(p, id);
      const event = events.find((e) => e.requestId === requestId);
      expect({ route, id, found: event !== undefined }).toEqual({ route, id, found: true });
      expect(event!.outcome).toEqual({ status: res.status, code: null });
      expect(event!.resourceIds).toContain(id);
    }
  });
});

/** A wallet (with a live session) funding an ACTIVE card, and the body of its delegated key. */
async function walletCard(p: TestPlatform) {
  const w = await walletWithSession(p);
  await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' });
  const issued = await postCard(p, cardBody(w.customerId, w.accountId));
  const card = await p.post(`/sandbox/cards/${issued.body.id}/simulate/provisioning`, { outcome: 'ACTIVE' });
  return {
    w,
    cardId: card.body.id as string,
    body: { cardId: card.body.id, internalAccountId: w.accountId, nickname: 'k' },
  };
}

/** The three legs of a delegated key: its id. */
async function delegatedKey(p: TestPlatform) {
  const { w, body } = await walletCard(p);
  let res = await send(p, 'post', '/auth/delegated-keys', body);
  for (let leg = 0; leg < 2; leg++) {
    const { payloadToSign, requestId } = res.body as { payloadToSign: string; requestId: string };
    res = await send(
      p,
      'post',
      '/auth/delegated-keys',
      body,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
  }
  return { res, w };
}

/** The new areas' changes that are not POST: their events name the resource the same way. */
const OTHER_CHANGES: Record<string, Case> = {
  [`PUT ${V}/documents/:documentId`]: async (p) => {
    const customer = await newCustomer(p);
    const doc = await newDocument(p, customer.id, 'PASSPORT');
    const res = answer(
      await uploadDocument(p, { country: 'FR' }, samplePdf('new'), 'new.pdf', 'put', `/documents/${doc.id}`),
    );
    return { res, ids: [doc.id] };
  },
  [`DELETE ${V}/documents/:documentId`]: async (p) => {
    const customer = await newCustomer(p);
    const doc = await newDocument(p, customer.id, 'PASSPORT');
    const res = await p.delete(`/documents/${doc.id}`);
    return { res, ids: [doc.id] };
  },
  [`DELETE ${V}/payment-documents/:documentId`]: async (p) => {
    const customer = await newCustomer(p);
    const doc = await newPaymentDocument(p, customer.id);
    const res = await p.delete(`/payment-documents/${doc.id}`);
    return { res, ids: [doc.id] };
  },
  [`DELETE ${V}/auth/credentials/:id`]: async (p) => {
    const w = await walletWithSession(p, { phoneNumber: '+14155550198' });
    const body = { type: 'SMS_OTP', accountId: w.accountId };
    const add = await p.post('/auth/credentials', body);
    const sms = await send(
      p,
      'post',
      '/auth/credentials',
      body,
      signedHeaders(await stamp(w.session.key, add.body.payloadToSign as string), add.body.requestId as string),
    );
    const first = await send(p, 'delete', `/auth/credentials/${sms.body.id}`, undefined);
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'delete',
      `/auth/credentials/${sms.body.id}`,
      undefined,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [sms.body.id as string] };
  },
  [`DELETE ${V}/auth/sessions/:id`]: async (p) => {
    const w = await walletWithSession(p);
    const first = await send(p, 'delete', `/auth/sessions/${w.session.id}`, undefined);
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'delete',
      `/auth/sessions/${w.session.id}`,
      undefined,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [w.session.id] };
  },
  [`DELETE ${V}/auth/delegated-keys/:id`]: async (p) => {
    const { res: created } = await delegatedKey(p);
    const res = await send(p, 'delete', `/auth/delegated-keys/${created.body.id}`, undefined);
    return { res, ids: [created.body.id as string] };
  },
  [`PATCH ${V}/internal-accounts/:id`]: async (p) => {
    const w = await walletWithSession(p);
    const body = { privateEnabled: true };
    const first = await send(p, 'patch', `/internal-accounts/${w.accountId}`, body);
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };
    const res = await send(
      p,
      'patch',
      `/internal-accounts/${w.accountId}`,
      body,
      signedHeaders(await stamp(w.session.key, payloadToSign), requestId),
    );
    return { res, ids: [w.accountId] };
  },
  [`PATCH ${V}/beneficial-owners/:beneficialOwnerId`]: async (p) => {
    const owner = await newCustomer(p, business());
    const created = ok(await p.post('/beneficial-owners', ownerBody(owner.id)), 'beneficial owner');
    const res = await p.patch(`/beneficial-owners/${created.body.id}`, { ownershipPercentage: 60 });
    return { res, ids: [created.body.id] };
  },
};

describe.each(Object.keys(OTHER_CHANGES))('%s', (route) => {
  it('its audit event is found by the id of the resource it changed', async () => {
    const p = await TestPlatform.create(t);
    const { res, ids } = await OTHER_CHANGES[route](p);
    if (res.status >= 300) throw new Error(`${route}: ${res.status} ${JSON.stringify(res.body)}`);
    for (const id of ids) {
      const event = (await eventsOf(p, id)).find((e) => e.requestId === res.headers['x-request-id']);
      expect({ route, id, found: event !== undefined }).toEqual({ route, id, found: true });
      expect(event!.outcome).toEqual({ status: res.status, code: null });
    }
  });
});
