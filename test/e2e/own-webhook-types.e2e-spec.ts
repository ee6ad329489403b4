import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { EXTRA_WEBHOOK_TYPE_CHOICES, OWN_WEBHOOK_TYPES } from '../../src/outbox/webhook-types.js';
import { wantsExtraWebhookTypeSql } from '../../src/platform-config/extra-webhook-types.sql.js';
import { recordedEvents, signedSubscriber, stopSubscribers } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { kycApprovedCustomer } from '../support/fixtures.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { wantOwnEvents } from '../support/own-events.js';
import { linkProvider, registerCoin } from '../support/stablecoins.js';
import { invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * The service's own webhook types (outside the reference's closed WebhookType list) are opt-in:
 * `extraWebhookTypes` of PATCH /config (docs/webhooks.md#own-event-types). The filter sits at the
 * write: an own type a platform has not asked for is never written (no event, no sequence number),
 * so it is never delivered and GET /webhook-events never lists it; one it asked for is written and
 * delivered like any other. The outbox worker runs here (a database of this file's own).
 */
let db: IsolatedDatabase;
let t: TestApp;

beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url, clock: new FakeClock() });
});
afterAll(async () => {
  await stopSubscribers();
  await t.close();
  await db.close();
});

/** A stablecoin asked to be enabled: one STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED (PENDING_APPROVAL), if wanted. */
async function requestEnablement(p: TestPlatform, symbol = 'ACME'): Promise<string> {
  if (symbol === 'ACME') await linkProvider(p);
  const coin = await registerCoin(p, symbol);
  const res = await p.post(`/stablecoins/${coin.id as string}/grid-operations/enablement`);
  expect(res.status).toBe(200);
  return coin.id as string;
}

const outboxRows = async (p: TestPlatform, type: string) =>
  Number(
    (
      await t.app
        .get(DataSource)
        .query<Array<{ n: string }>>(`SELECT count(*) AS n FROM outbox_events WHERE platform_id = $1 AND type = $2`, [
          parseId('Platform', p.platformId),
          type,
        ])
    )[0].n,
  );

describe('extraWebhookTypes (PATCH /config, GET /config)', () => {
  it('is empty by default; takes own types, RESOURCE.* and *; every bad value is its own FieldError; [] and null clear it', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.get('/config')).body.extraWebhookTypes).toEqual([]);

    const bad = await p.patch('/config', {
      extraWebhookTypes: [
        'NOPE',
        'CARD.STATUS_CHANGE',
        'STABLECOIN.*',
        'STABLECOIN.*',
        'DELEGATED_KEY.CREATED',
        'AUTH_*',
      ],
    });
    expect(invalidFields(bad)).toEqual([
      'extraWebhookTypes.0',
      'extraWebhookTypes.1',
      'extraWebhookTypes.3',
      'extraWebhookTypes.5',
    ]);
    const first = (bad.body.details.errors as Array<{ field: string; constraint?: { enum?: string[] } }>)[0];
    expect(first.constraint?.enum).toEqual([...EXTRA_WEBHOOK_TYPE_CHOICES]);
    expect(invalidFields(await p.patch('/config', { extraWebhookTypes: 'DELEGATED_KEY.*' }))).toEqual([
      'extraWebhookTypes',
    ]);
    expect((await p.get('/config')).body.extraWebhookTypes).toEqual([]);

    const set = await p.patch('/config', { extraWebhookTypes: ['STABLECOIN.*', 'DELEGATED_KEY.CREATED'] });
    expect(set.status).toBe(200);
    expect(set.body.extraWebhookTypes).toEqual(['STABLECOIN.*', 'DELEGATED_KEY.CREATED']);
    expect((await p.get('/config')).body.extraWebhookTypes).toEqual(['STABLECOIN.*', 'DELEGATED_KEY.CREATED']);
    // Another field alone leaves the list as it is.
    expect((await p.patch('/config', { counterpartyRequirements: false })).body.extraWebhookTypes).toHaveLength(2);
    expect((await p.patch('/config', { extraWebhookTypes: [] })).body.extraWebhookTypes).toEqual([]);
    await wantOwnEvents(p, ['*']);
    expect((await p.patch('/config', { extraWebhookTypes: null })).body.extraWebhookTypes).toEqual([]);
  });

  it('a resource prefix names its own types only (STABLECOIN.* is not STABLECOIN_OPERATION.*): the condition the outbox write runs', async () => {
    const wants = async (p: TestPlatform, type: string) =>
      (
        await t.app
          .get(DataSource)
          .query<Array<{ yes: boolean }>>(`SELECT ${wantsExtraWebhookTypeSql('$1::uuid', '$2')} AS yes`, [
            parseId('Platform', p.platformId),
            type,
          ])
      )[0].yes;
    const prefix = await wantOwnEvents(await TestPlatform.create(t), ['STABLECOIN.*', 'AUTH_SESSION.CREATED']);
    expect(await wants(prefix, 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED')).toBe(true);
    expect(await wants(prefix, 'STABLECOIN_OPERATION.CREATED')).toBe(false);
    expect(await wants(prefix, 'AUTH_SESSION.CREATED')).toBe(true);
    expect(await wants(prefix, 'AUTH_SESSION.REVOKED')).toBe(false);
    const all = await wantOwnEvents(await TestPlatform.create(t), ['*']);
    expect(await wants(all, 'AUTH_SESSION.REVOKED')).toBe(true);
    expect(await wants(await TestPlatform.create(t), 'AUTH_SESSION.REVOKED')).toBe(false);
    expect(OWN_WEBHOOK_TYPES.every((type) => EXTRA_WEBHOOK_TYPE_CHOICES.includes(type))).toBe(true);
  });
});

describe('delivery', () => {
  it('not asked for: the own type is never written, listed or delivered; the reference types still are', async () => {
    const { p, deliver } = await signedSubscriber(t);
    await requestEnablement(p);
    await kycApprovedCustomer(p);
    const got = (await deliver()).map((w) => w.body.type);
    expect(got).toContain('CUSTOMER.KYC_APPROVED');
    expect(got.filter((type) => !type.startsWith('CUSTOMER.'))).toEqual([]);
    expect((await recordedEvents(p)).map((e) => e.type)).not.toContain('STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED');
    expect(await outboxRows(p, 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED')).toBe(0);
  });

  it('asked for: written and delivered, signed, its data the resource as its read route renders it; asked no more: not written again', async () => {
    const { p, deliver } = await signedSubscriber(t);
    await wantOwnEvents(p, ['STABLECOIN.*']);
    const coinId = await requestEnablement(p);
    const got = (await deliver()).filter((w) => w.body.type === 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED');
    expect(got).toHaveLength(1);
    expect(got[0].body.data).toEqual((await p.get(`/stablecoins/${coinId}`)).body);
    expect((await recordedEvents(p, 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED')).map((e) => e.id)).toEqual([
      got[0].body.id,
    ]);

    await wantOwnEvents(p, []);
    await requestEnablement(p, 'BETA');
    expect((await deliver()).map((w) => w.body.type)).not.toContain('STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED');
    expect(await outboxRows(p, 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED')).toBe(1);
  });
});

describe('the served OpenAPI document', () => {
  it("documents each own type's payload in `webhooks`, its data the read route's schema", async () => {
    const doc = (await t.http.get(`${V}/openapi.json`).expect(200)).body as {
      openapi: string;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>;
      components: { schemas: Record<string, { allOf?: Array<{ properties?: Record<string, unknown> }> }> };
    };
    expect(doc.openapi).toMatch(/^3\.1/);
    const documented = Object.values(doc.webhooks).flatMap((w) => {
      const name = w.post.requestBody.content['application/json'].schema.$ref.split('/').pop()!;
      const props = doc.components.schemas[name].allOf![1].properties as { type: { enum: string[] } };
      return props.type.enum;
    });
    expect([...documented].sort()).toEqual([...OWN_WEBHOOK_TYPES].sort());
    expect(JSON.stringify(doc.components.schemas.DelegatedKeyWebhook)).toContain(
      '#/components/schemas/DelegatedKeyView',
    );
  });
});
