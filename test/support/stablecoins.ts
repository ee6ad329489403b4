import { randomBytes } from 'node:crypto';
import { parseId } from '../../src/common/ids.js';
import { SANDBOX_PROVIDER_STEP_MS } from '../../src/stablecoins/provider/sandbox-stablecoin-provider.js';
import { StablecoinOperationsWorker } from '../../src/stablecoins/stablecoin-operations.worker.js';
import type { FakeClock } from './fake-clock.js';
import { usdAccountBody } from './fixtures.js';
import type { TestApp, TestPlatform } from './test-app.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies in tests
export type Json = Record<string, any>;

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A fresh Idempotency-Key. */
export const key = () => `k-${randomBytes(8).toString('hex')}`;

function ok(res: { status: number; body: unknown }, status: number, what: string): Json {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Json;
}

/** POST with a fresh (or the given) Idempotency-Key. */
export function keyed(p: TestPlatform, path: string, body: object, idempotencyKey = key()) {
  return p.post(path, body).set('Idempotency-Key', idempotencyKey);
}

/** The sandbox provider's valid credentials for a client id (the secret is `<id>_secret`). */
export const credentials = (apiClientId = `acme_${randomBytes(3).toString('hex')}`) => ({
  provider: 'BRALE',
  apiClientId,
  apiClientSecret: `${apiClientId}_secret`,
});

export async function linkProvider(p: TestPlatform, apiClientId?: string): Promise<Json> {
  return ok(await keyed(p, '/stablecoin-provider-accounts', credentials(apiClientId)), 201, 'link');
}

/** A fresh Spark token identifier. */
export const sparkToken = () => `btkn1${Array.from(randomBytes(30), (b) => BECH32[b % 32]).join('')}`;

export async function registerCoin(p: TestPlatform, symbol = 'ACME', extra: object = {}): Promise<Json> {
  return ok(
    await keyed(p, '/stablecoins', {
      providerTokenIdentifier: symbol,
      networkTokenIdentifier: sparkToken(),
      network: 'SPARK',
      ...extra,
    }),
    201,
    'register',
  );
}

/** A fresh SPARK_WALLET external account of the platform. */
export async function sparkWallet(p: TestPlatform): Promise<string> {
  const address = `spark1${Array.from(randomBytes(40), (b) => BECH32[b % 32]).join('')}`;
  const res = await p.post('/platform/external-accounts', {
    currency: 'USDB',
    accountInfo: { accountType: 'SPARK_WALLET', address },
  });
  return ok(res, 201, 'spark wallet').id as string;
}

/** A USD bank account of the platform; `last4` picks the sandbox provider's link outcome (0401..0404). */
export async function bankAccount(p: TestPlatform, last4 = '6789'): Promise<string> {
  const accountNumber = `${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}${last4}`;
  return ok(await p.post('/platform/external-accounts', usdAccountBody({ accountNumber })), 201, 'bank').id as string;
}

/** A linked provider, a PROVISIONED coin, a Spark wallet and a bank account. */
export async function issuer(p: TestPlatform, symbol = 'ACME') {
  const link = await linkProvider(p);
  const coin = await registerCoin(p, symbol);
  const wallet = await sparkWallet(p);
  const bank = await bankAccount(p);
  return { link, coin, wallet, bank };
}

export const wireMint = (wallet: string, amount: string) => ({
  amount,
  fundingSource: { type: 'WIRE' },
  destination: { accountId: wallet },
});
export const achMint = (bank: string, wallet: string, amount: string, type = 'ACH_DEBIT') => ({
  amount,
  fundingSource: { type, externalAccountId: bank },
  destination: { accountId: wallet },
});
export const burnBody = (
  bank: string,
  amount: string,
  source: object = { type: 'PROVIDER_INTERNAL_BALANCE' },
  rail = 'ACH_CREDIT',
) => ({
  amount,
  source,
  destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail },
});

/**
 * Drives the sandbox provider as a worker would: moves the (fake, real-time) clock one step and runs
 * the worker for the platform until a pass takes no step. Answers how many steps it took.
 */
export async function driveProvider(t: TestApp, p: TestPlatform, clock: FakeClock): Promise<number> {
  const worker = t.app.get(StablecoinOperationsWorker);
  let total = 0;
  for (let i = 0; i < 10; i++) {
    clock.advance(SANDBOX_PROVIDER_STEP_MS);
    const steps = await worker.runOnce({ platformId: parseId('Platform', p.platformId)! });
    total += steps;
    if (steps === 0) break;
  }
  return total;
}
