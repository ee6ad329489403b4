import { parseId } from '../../src/common/ids.js';
import { RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { SANDBOX_RAIL_STEP_MS } from '../../src/payments/rail/sandbox-rail.js';
import { customerExternalAccount } from './agent-quotes.js';
import type { FakeClock } from './fake-clock.js';
import { customerAccount, fundedAccount } from './fixtures.js';
import type { Customer } from './fixtures.js';
import type { TestApp, TestPlatform } from './test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read members at any depth
export type Json = Record<string, any>;

/** A platform QuoteRequest body (sending side locked unless `extra` says otherwise). */
export function platformQuote(
  source: string,
  destination: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/**
 * A KYC-approved customer whose USD account holds `funds`, with an ACTIVE USD external account of
 * its own: `quote(amount)` quotes a payout to it, `execute(quoteId)` executes, `balance()` reads.
 */
export async function payer(p: TestPlatform, funds = 1_000_000, options: { customer?: Customer } = {}) {
  const { customer, account } = await fundedAccount(p, funds, options);
  const externalAccountId = await customerExternalAccount(p, customer);
  const quote = async (amount: number, extra: Record<string, unknown> = {}, destination = externalAccountId) => {
    const res = await p.post('/quotes', platformQuote(account.id, destination, amount, extra));
    if (res.status !== 201) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const execute = async (quoteId: string) => {
    const res = await p.post(`/quotes/${quoteId}/execute`);
    if (res.status !== 200) throw new Error(`execute: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const balance = async (currency = 'USD'): Promise<number> =>
    (await customerAccount(p, customer.id, currency)).balance.amount;
  return { customer, accountId: account.id, externalAccountId, quote, execute, balance };
}

/**
 * Drives the sandbox rail as a worker would: moves the (fake, real-time) clock one rail step and
 * runs the worker for the platform, until a pass takes no step. Answers how many steps it took.
 */
export async function driveRail(t: TestApp, p: TestPlatform, clock: FakeClock): Promise<number> {
  const worker = t.app.get(RailWorker);
  let total = 0;
  for (let i = 0; i < 10; i++) {
    clock.advance(SANDBOX_RAIL_STEP_MS);
    const steps = await worker.runOnce({ platformId: parseId('Platform', p.platformId)! });
    total += steps;
    if (steps === 0) break;
  }
  return total;
}

/**
 * `from` pays `umaAddress` over UMA: a lookup, a quote locking `amount` (USD minor units) on the
 * sending side to that address in `currency`, and its execution (the UMA reconciliation tests).
 */
export async function payOverUma(
  p: TestPlatform,
  from: { customerId: string; accountId: string },
  umaAddress: string,
  amount: number,
  currency = 'EUR',
) {
  const lookup = await p.get(`/receiver/uma/${encodeURIComponent(umaAddress)}?customerId=${from.customerId}`);
  expect(lookup.body).toMatchObject({ lookupId: expect.any(String) });
  const created = await p.post('/quotes', {
    lookupId: (lookup.body as Json).lookupId,
    source: { sourceType: 'ACCOUNT', accountId: from.accountId },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect([created.status, JSON.stringify(created.body)]).toEqual([201, expect.any(String)]);
  const quote = created.body as Json;
  expect((await p.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
  return { outgoingId: quote.transactionId as string, amount, received: quote.totalReceivingAmount as number };
}
