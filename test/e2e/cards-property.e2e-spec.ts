import fc from 'fast-check';
import { isAllowedEdge, REQUESTED_TRANSITIONS } from '../../src/cards/card-state-machine.js';
import type { CardStatus } from '../../src/cards/card.types.js';
import { cardIn, CardView } from '../support/cards.js';
import { customerAccount, kycApprovedCustomer, type Customer } from '../support/fixtures.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Random PATCH bodies against cards in every status: never a 5xx, a card's status moves only
 * along the machine's edges (and only to the requested status), and each move writes exactly one
 * CARD.STATUS_CHANGE while anything else writes none. `CARDS_PROPERTY_RUNS` sets the run count.
 */
const RUNS = Number(process.env.CARDS_PROPERTY_RUNS ?? 120);
const STATUSES: CardStatus[] = ['PROCESSING', 'PENDING_KYC', 'ACTIVE', 'FROZEN', 'CLOSED'];

let t: TestApp;
let p: TestPlatform;
let holder: Customer;
let ownAccount: string;
let othersAccount: string;
beforeAll(async () => {
  t = await startTestApp();
  p = await TestPlatform.create(t);
  holder = await kycApprovedCustomer(p);
  ownAccount = (await customerAccount(p, holder.id)).id;
  othersAccount = (await customerAccount(p, (await kycApprovedCustomer(p)).id)).id;
});
afterAll(() => t.close());

/** Cards by their current status, reused across runs (a run puts its card back under its new status). */
const pool = new Map<CardStatus, CardView[]>(STATUSES.map((s) => [s, []]));

async function takeCard(status: CardStatus): Promise<CardView> {
  const ready = pool.get(status)!;
  if (ready.length > 0) return ready.pop()!;
  // PENDING_KYC cards need a cardholder whose KYC is no longer approved: cardIn makes its own.
  return cardIn(p, status, status === 'PENDING_KYC' ? {} : { customer: holder });
}

const eventCount = async () =>
  ((await p.get('/webhook-events?type=CARD.STATUS_CHANGE&limit=1')).body as { totalCount: number }).totalCount;

const limit = (max: number) =>
  fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(null, 0, -1, max, max + 1, 1.5, '100', true));

const SUBSTATUSES = ['LOST', 'COMPROMISED', 'OTHER', 'SUSPICIOUS_ACTIVITY', 'EXPIRED'];

/** Mostly well-formed status changes, mixed with every other member and malformed values (built once the accounts exist). */
const patchBody = () =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record(
        {
          status: fc.constantFrom('ACTIVE', 'FROZEN', 'CLOSED'),
          substatus: fc.constantFrom(...SUBSTATUSES),
          reason: fc.constantFrom('Cardholder request', 'Fraud review'),
          maxSpendPerDay: limit(9007199254740991),
          fundingSource: fc.constantFrom(ownAccount, othersAccount),
        },
        { requiredKeys: ['status', 'substatus', 'reason'] },
      ),
    },
    {
      weight: 3,
      arbitrary: fc.record(
        {
          status: fc.oneof(
            fc.constantFrom('ACTIVE', 'FROZEN', 'CLOSED'),
            fc.constantFrom('PROCESSING', 'PENDING_KYC', null, 'x', 3),
          ),
          substatus: fc.oneof(fc.constantFrom(...SUBSTATUSES), fc.constantFrom('STOLEN', null, 1)),
          reason: fc.oneof(fc.constant('why'), fc.string({ maxLength: 5 }), fc.constant(null)),
          fundingSource: fc.constantFrom(
            ownAccount,
            othersAccount,
            'InternalAccount:00000000-0000-7000-8000-000000000000',
            'nope',
            null,
            7,
          ),
          maxSpendPerTransaction: limit(9007199254740991),
          maxSpendPerDay: limit(9007199254740991),
          maxTransactionsPerDay: limit(2147483647),
          threeDSecurePassword: fc.oneof(fc.constant('Pw-12345'), fc.string({ maxLength: 4 }), fc.constant(null)),
          extra: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([], 'FROZEN', 42, null) },
  );

describe('PATCH /cards/{id} property', () => {
  it('never a 5xx; status moves only along allowed edges; exactly one event per move', async () => {
    const moves = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...STATUSES), patchBody(), async (status, body) => {
        const card = await takeCard(status);
        const before = await eventCount();
        // Sent as raw JSON text, so that arrays, strings and numbers go as the body too.
        const res = await t.http
          .patch(`${V}/cards/${card.id}`)
          .set('Authorization', p.authorization)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect(res.status).toBeLessThan(500);
        const after = (await p.get(`/cards/${card.id}`)).body as CardView;
        const events = (await eventCount()) - before;
        const from = card.status as CardStatus;
        const to = after.status as CardStatus;
        if (res.status === 200) {
          expect(res.body).toEqual(after);
        } else {
          expect([400, 409]).toContain(res.status);
          expect(after).toEqual(card);
        }
        if (to !== from) {
          expect(isAllowedEdge(from, to)).toBe(true);
          expect(REQUESTED_TRANSITIONS[from]).toContain(to);
          expect((body as { status: unknown }).status).toBe(to);
          expect(events).toBe(1);
          moves.add(`${from}->${to}`);
        } else {
          expect(events).toBe(0);
        }
        pool.get(to)!.push(after);
      }),
      {
        numRuns: RUNS,
        // Each allowed edge at least once, whatever the random draw.
        examples: (
          [
            ['ACTIVE', 'CLOSED'],
            ['ACTIVE', 'FROZEN'],
            ['FROZEN', 'ACTIVE'],
            ['FROZEN', 'CLOSED'],
          ] as const
        ).map(([from, to]): [CardStatus, unknown] => [from, { status: to, substatus: 'OTHER', reason: 'edge' }]),
      },
    );
    expect([...moves].sort()).toEqual(['ACTIVE->CLOSED', 'ACTIVE->FROZEN', 'FROZEN->ACTIVE', 'FROZEN->CLOSED']);
  });
});
