import type { AddressInfo } from 'node:net';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { individual } from '../support/customers.js';
import { recordedEvents } from '../support/events.js';
import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { newCustomer, supportCurrencies } from '../support/fixtures.js';
import { expectError, startTestApp, TestPlatform, type TestApp } from '../support/test-app.js';
import { FakeCounterparty } from '../support/uma-counterparty.js';

/**
 * UMA between two deployments of this service (A on the run's database, B on a database of its
 * own, each on its own port and so its own UMA domain `localhost:<port>`), and against a fake
 * counterparty built on @uma-sdk/core that misbehaves on purpose.
 */
const domainOf = (t: TestApp) => `localhost:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;

describe('UMA', () => {
  let a: TestApp;
  let b: TestApp;
  let dbB: IsolatedDatabase;
  let fake: FakeCounterparty;
  let pa: TestPlatform;
  let pb: TestPlatform;
  let alice: { id: string; umaAddress: string };
  let bob: { id: string; umaAddress: string };

  beforeAll(async () => {
    dbB = await isolatedDatabase();
    a = await startTestApp();
    b = await startTestApp({}, { databaseUrl: dbB.url });
    fake = await FakeCounterparty.start();
    pa = await TestPlatform.create(a);
    pb = await TestPlatform.create(b);
    await supportCurrencies(pb, ['USD', 'EUR']);
    alice = <{ id: string; umaAddress: string }>(
      (<unknown>await newCustomer(pa, individual({ umaAddress: `$alice@${domainOf(a)}` })))
    );
    bob = <{ id: string; umaAddress: string }>(
      (<unknown>await newCustomer(pb, individual({ umaAddress: `$bob@${domainOf(b)}` })))
    );
  }, 180_000); // two apps and a second database migrated from scratch: slow on a loaded machine

  afterAll(async () => {
    await fake?.close();
    await a?.close();
    await b?.close();
    await dbB?.close();
  });

  describe('what a deployment publishes', () => {
    it('serves its keys at /.well-known/lnurlpubkey, without credentials', async () => {
      const res = await b.http.get('/.well-known/lnurlpubkey');
      expect(res.status).toBe(200);
      const body = res.body as {
        signingCertChain: string[];
        encryptionCertChain: string[];
        expirationTimestamp: number;
      };
      expect(body.signingCertChain.length).toBeGreaterThan(0);
      expect(body.encryptionCertChain.length).toBeGreaterThan(0);
      expect(body.encryptionCertChain).not.toEqual(body.signingCertChain);
      expect(body.expirationTimestamp).toBeGreaterThan(1_700_000_000);
      // The same keys on every call (generated once, stored sealed).
      expect((await b.http.get('/.well-known/lnurlpubkey')).body).toEqual(body);
    });

    it('generates customers UMA addresses on the deployment domain', async () => {
      const c = await newCustomer(pb);
      expect(c.umaAddress).toMatch(new RegExp(`@${domainOf(b).replace('.', '\\.')}$`));
    });

    it('refuses an unsigned lnurlp request (MISSING_REQUIRED_UMA_PARAMETERS)', async () => {
      expectError(await b.http.get('/.well-known/lnurlp/$bob'), 400, 'MISSING_REQUIRED_UMA_PARAMETERS');
    });
  });

  describe('lookup between two deployments', () => {
    it('answers currencies, rates, limits and payer data under a lookupId', async () => {
      const res = await pa.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}?customerId=${alice.id}`);
      expect(res.status).toBe(200);
      const body = res.body as {
        receiverUmaAddress: string;
        lookupId: string;
        supportedCurrencies: Array<{
          currency: { code: string; decimals: number };
          estimatedExchangeRate: number;
          min: number;
          max: number;
        }>;
        requiredPayerDataFields: Array<{ name: string; mandatory: boolean }>;
      };
      expect(body.receiverUmaAddress).toBe(bob.umaAddress);
      expect(body.lookupId).toMatch(/^Lookup:[0-9a-f-]{36}$/);
      const codes = body.supportedCurrencies.map((c) => c.currency.code).sort();
      expect(codes).toEqual(['EUR', 'USD']);
      const usd = body.supportedCurrencies.find((c) => c.currency.code === 'USD')!;
      const eur = body.supportedCurrencies.find((c) => c.currency.code === 'EUR')!;
      expect(usd.estimatedExchangeRate).toBeCloseTo(1, 6);
      expect(eur.estimatedExchangeRate).toBeCloseTo(0.92, 6);
      expect(eur.min).toBeGreaterThan(0);
      expect(eur.max).toBeGreaterThan(eur.min);
      expect(body.requiredPayerDataFields).toEqual(
        expect.arrayContaining([
          { name: 'IDENTIFIER', mandatory: true },
          { name: 'FULL_NAME', mandatory: false },
        ]),
      );
    });

    it('finds the sender by its UMA address too', async () => {
      const res = await pa.get(
        `/receiver/uma/${encodeURIComponent(bob.umaAddress)}?senderUmaAddress=${encodeURIComponent(alice.umaAddress)}`,
      );
      expect(res.status).toBe(200);
    });

    it('maps an unknown receiver to 404 UMA_NOT_FOUND', async () => {
      const res = await pa.get(`/receiver/uma/${encodeURIComponent(`$nobody@${domainOf(b)}`)}?customerId=${alice.id}`);
      expectError(res, 404, 'UMA_NOT_FOUND');
    });

    it('refuses a malformed address with 400 INVALID_UMA_ADDRESS', async () => {
      expectError(await pa.get(`/receiver/uma/not-an-address?customerId=${alice.id}`), 400, 'INVALID_UMA_ADDRESS');
      expectError(
        await pa.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}?senderUmaAddress=nope`),
        400,
        'INVALID_UMA_ADDRESS',
      );
    });

    it('requires a sender, and the sender must be the platform customer', async () => {
      expectError(await pa.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}`), 400, 'INVALID_INPUT');
      expectError(
        await pb.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}?customerId=${alice.id}`),
        404,
        'CUSTOMER_NOT_FOUND',
      );
    });

    it('maps an unreachable counterparty to 424 LNURLP_REQUEST_FAILED', async () => {
      const closed = await FakeCounterparty.start();
      await closed.close();
      const res = await pa.get(`/receiver/uma/${encodeURIComponent(`$x@${closed.domain}`)}?customerId=${alice.id}`);
      expectError(res, 424, 'LNURLP_REQUEST_FAILED');
    });

    it('looks up an external account: the same shape, at the rate table', async () => {
      const eur = { currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', 31) };
      const created = await pa.post('/platform/external-accounts', eur);
      expect(created.status).toBe(201);
      const id = (created.body as { id: string }).id;
      const res = await pa.get(`/receiver/external-account/${id}?customerId=${alice.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        accountId: id,
        lookupId: expect.stringMatching(/^Lookup:/) as unknown,
        supportedCurrencies: [{ currency: { code: 'EUR' }, estimatedExchangeRate: 0.92 }],
        requiredPayerDataFields: [],
      });
      expectError(await pb.get(`/receiver/external-account/${id}?customerId=${bob.id}`), 404, 'ACCOUNT_NOT_FOUND');
      expectError(await pa.get(`/receiver/external-account/nope?customerId=${alice.id}`), 404, 'ACCOUNT_NOT_FOUND');
    });

    it('lists the looked-up counterparty among the UMA providers', async () => {
      const res = await pa.get('/uma-providers');
      expect(res.status).toBe(200);
      const domains = (res.body as { data: Array<{ domain: string }> }).data.map((p) => p.domain);
      expect(domains).toEqual(expect.arrayContaining([domainOf(a), domainOf(b)]));
    });
  });

  describe("a counterparty's bad answers, each refused with its code", () => {
    const lookup = () => pa.get(`/receiver/uma/${encodeURIComponent(`$carol@${fake.domain}`)}?customerId=${alice.id}`);
    afterEach(() => {
      fake.misbehave = 'none';
      fake.keyMode = 'valid';
    });

    it('accepts a well-behaved one', async () => {
      const res = await lookup();
      expect(res.status).toBe(200);
      const eur = (
        res.body as {
          supportedCurrencies: Array<{ currency: { code: string }; estimatedExchangeRate: number; min: number }>;
        }
      ).supportedCurrencies[0];
      expect(eur.currency.code).toBe('EUR');
      expect(eur.min).toBe(10);
      expect(eur.estimatedExchangeRate).toBeCloseTo(0.92, 3);
    });

    it.each([
      ['tampered-signature', 400, 'LOOKUP_REQUEST_FAILED'],
      ['stale-timestamp', 400, 'INVALID_TIMESTAMP'],
      ['wrong-receiver', 400, 'INVALID_RECEIVER'],
      ['not-uma', 400, 'MISSING_REQUIRED_UMA_PARAMETERS'],
      ['garbage', 400, 'PARSE_LNURLP_RESPONSE_ERROR'],
      ['status-412', 412, 'UNSUPPORTED_UMA_VERSION'],
      ['status-500', 424, 'LNURLP_REQUEST_FAILED'],
      ['status-400-invalid-nonce', 400, 'INVALID_NONCE'],
    ] as const)('%s: %i %s', async (mode, status, code) => {
      fake.misbehave = mode;
      const body = expectError(await lookup(), status, code);
      if (mode === 'tampered-signature') expect(body.details).toEqual({ cause: 'INVALID_SIGNATURE' });
    });

    it('a replayed response (same nonce): 400 INVALID_NONCE', async () => {
      expect((await lookup()).status).toBe(200);
      fake.misbehave = 'replay'; // the same signed response again
      expectError(await lookup(), 400, 'INVALID_NONCE');
    });

    it.each([
      ['expired', 400, 'CERT_CHAIN_EXPIRED'],
      ['broken-chain', 400, 'CERT_CHAIN_INVALID'],
      ['missing', 424, 'COUNTERPARTY_PUBKEY_FETCH_ERROR'],
      ['malformed', 400, 'INVALID_PUBKEY_FORMAT'],
    ] as const)('keys %s: %i %s', async (mode, status, code) => {
      fake.keyMode = mode;
      expectError(await lookup(), status, code);
    });

    it('records no lookup for a refused answer', async () => {
      const before = await dbLookups(pa);
      fake.misbehave = 'tampered-signature';
      await lookup();
      expect(await dbLookups(pa)).toBe(before);
    });
  });

  describe('the receiving side refuses bad lnurlp requests', () => {
    const path = (url: URL) => `${url.pathname}${url.search}`;

    it('answers a correctly signed request from another participant', async () => {
      const res = await b.http.get(path(await fake.signedRequest(bob.umaAddress)));
      expect(res.status).toBe(200);
      expect((res.body as { compliance: { receiverIdentifier: string } }).compliance.receiverIdentifier).toBe(
        bob.umaAddress,
      );
    });

    it('a tampered signature: 401 INVALID_SIGNATURE', async () => {
      const url = await fake.signedRequest(bob.umaAddress);
      const s = url.searchParams.get('signature')!;
      url.searchParams.set('signature', s.slice(0, -4) + (s.endsWith('0000') ? '1111' : '0000'));
      expectError(await b.http.get(path(url)), 401, 'INVALID_SIGNATURE');
    });

    it('a replayed request: 400 INVALID_NONCE', async () => {
      const url = await fake.signedRequest(bob.umaAddress);
      expect((await b.http.get(path(url))).status).toBe(200);
      expectError(await b.http.get(path(url)), 400, 'INVALID_NONCE');
    });

    it('a stale timestamp: 400 INVALID_TIMESTAMP', async () => {
      const url = await fake.signedRequest(bob.umaAddress);
      url.searchParams.set('timestamp', String(Number(url.searchParams.get('timestamp')) - 3600));
      expectError(await b.http.get(path(url)), 400, 'INVALID_TIMESTAMP');
    });

    it("an unknown key (the sender's domain publishes none): 424 COUNTERPARTY_PUBKEY_FETCH_ERROR", async () => {
      fake.keyMode = 'missing';
      try {
        expectError(
          await b.http.get(path(await fake.signedRequest(bob.umaAddress))),
          424,
          'COUNTERPARTY_PUBKEY_FETCH_ERROR',
        );
      } finally {
        fake.keyMode = 'valid';
      }
    });

    it('an expired sender certificate: 400 CERT_CHAIN_EXPIRED', async () => {
      fake.keyMode = 'expired';
      try {
        expectError(await b.http.get(path(await fake.signedRequest(bob.umaAddress))), 400, 'CERT_CHAIN_EXPIRED');
      } finally {
        fake.keyMode = 'valid';
      }
    });

    it('an unsupported UMA version: 412 UNSUPPORTED_UMA_VERSION', async () => {
      const url = await fake.signedRequest(bob.umaAddress);
      url.searchParams.set('umaVersion', '99.0');
      expectError(await b.http.get(path(url)), 412, 'UNSUPPORTED_UMA_VERSION');
    });

    it('an unknown receiver: 404 UMA_NOT_FOUND', async () => {
      expectError(await b.http.get(path(await fake.signedRequest(`$ghost@${domainOf(b)}`))), 404, 'UMA_NOT_FOUND');
    });
  });

  describe('invitations', () => {
    it('create, read, claim once (INVITATION.CLAIMED), then refuse', async () => {
      const created = await pa.post('/invitations', {
        inviterUma: alice.umaAddress,
        firstName: 'Alice',
        amountToSend: 12550,
      });
      expect(created.status).toBe(201);
      const inv = created.body as {
        code: string;
        url: string;
        status: string;
        inviterUma: string;
        amountToSend: { amount: number; currency: { code: string } };
      };
      expect(inv).toMatchObject({ status: 'PENDING', inviterUma: alice.umaAddress, amountToSend: { amount: 12550 } });
      expect(inv.url).toBe(`http://${domainOf(a)}/invitations/${inv.code}`);
      expect((await pa.get(`/invitations/${inv.code}`)).body).toEqual(inv);

      const other = await TestPlatform.create(a);
      const claimed = await other.post(`/invitations/${inv.code}/claim`, { inviteeUma: bob.umaAddress });
      expect(claimed.status).toBe(200);
      expect(claimed.body).toMatchObject({ status: 'CLAIMED', inviteeUma: bob.umaAddress });
      const events = await recordedEvents(pa, 'INVITATION.CLAIMED');
      expect(events.map((e) => (e.data as { code: string }).code)).toEqual([inv.code]);

      expectError(
        await other.post(`/invitations/${inv.code}/claim`, { inviteeUma: bob.umaAddress }),
        400,
        'INVITATION_ALREADY_CLAIMED',
      );
      expectError(await pa.post(`/invitations/${inv.code}/cancel`), 400, 'INVITATION_ALREADY_CLAIMED');
    });

    it('racing claims: one winner, one event', async () => {
      const inv = (await pa.post('/invitations', { inviterUma: alice.umaAddress })).body as { code: string };
      const results = await Promise.all(
        [1, 2, 3, 4].map((i) => pa.post(`/invitations/${inv.code}/claim`, { inviteeUma: `$friend${i}@example.com` })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      const events = (await recordedEvents(pa, 'INVITATION.CLAIMED')).filter(
        (e) => (e.data as { code: string }).code === inv.code,
      );
      expect(events).toHaveLength(1);
    });

    it('cancel: only by its platform; a cancelled invitation cannot be claimed', async () => {
      const inv = (await pa.post('/invitations', { inviterUma: alice.umaAddress })).body as { code: string };
      const other = await TestPlatform.create(a);
      expectError(await other.post(`/invitations/${inv.code}/cancel`), 403, 'FORBIDDEN');
      const cancelled = await pa.post(`/invitations/${inv.code}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'CANCELLED' });
      expectError(
        await other.post(`/invitations/${inv.code}/claim`, { inviteeUma: bob.umaAddress }),
        400,
        'INVITATION_CANCELLED',
      );
    });

    it('validates: every bad field at once, a malformed address, not a customer of the platform, unknown code', async () => {
      const res = await pa.post('/invitations', { firstName: 7, amountToSend: 0, expiresAt: '2000-01-01T00:00:00Z' });
      const fields = (expectError(res, 400, 'INVALID_INPUT').details!.errors as Array<{ field: string }>)
        .map((e) => e.field)
        .sort();
      expect(fields).toEqual(['amountToSend', 'expiresAt', 'firstName', 'inviterUma']);
      expectError(await pa.post('/invitations', { inviterUma: 'alice' }), 400, 'INVALID_UMA_ADDRESS');
      expectError(await pa.post('/invitations', { inviterUma: bob.umaAddress }), 400, 'INVALID_INPUT');
      expectError(await pa.get('/invitations/0123456789ab'), 404, 'INVITATION_NOT_FOUND');
      expectError(await pa.post('/invitations/0123456789ab/claim', { inviteeUma: 'bad' }), 400, 'INVALID_UMA_ADDRESS');
    });

    it('without an invitation URL outside the sandbox: 400 INVITATIONS_NOT_CONFIGURED', async () => {
      const prod = await startTestApp({ SANDBOX: 'false' });
      try {
        const p = await TestPlatform.create(prod);
        expectError(await p.post('/invitations', { inviterUma: alice.umaAddress }), 400, 'INVITATIONS_NOT_CONFIGURED');
        expectError(await prod.http.get('/.well-known/lnurlpubkey'), 503, 'SERVICE_UNAVAILABLE');
      } finally {
        await prod.close();
      }
    });
  });
});

async function dbLookups(p: TestPlatform): Promise<number> {
  const res = await p.get('/uma-providers');
  return (res.body as { totalCount: number }).totalCount;
}
