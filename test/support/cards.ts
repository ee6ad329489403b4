import { randomUUID } from 'node:crypto';
import { parseId } from '../../src/common/ids.js';
import { CardProvisioningService } from '../../src/cards/card-provisioning.service.js';
import { InternalAccountsService } from '../../src/customers/internal-accounts.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { customerAccount, kycApprovedCustomer, type Customer, type InternalAccount } from './fixtures.js';
import type { TestApp, TestPlatform } from './test-app.js';

/** A card as the API renders it (the members tests look at). */
export interface CardView {
  id: string;
  customerId: string;
  platformCardId: string;
  status: string;
  statusReason?: string;
  fundingSource: string;
  cardCapabilities: Record<string, boolean>;
  maxSpendPerTransaction: number | null;
  maxSpendPerDay: number | null;
  maxTransactionsPerDay: number | null;
  currency: string;
  createdAt: string;
  updatedAt: string;
  [member: string]: unknown;
}

/** The sandbox program's 3-D Secure password (its default program requires one). */
export const THREE_DS = 'AbCd1234EfGh5678';

/** A `POST /cards` body for this cardholder and funding account; `extra` adds or replaces members. */
export const cardBody = (customerId: string, fundingSource: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  form: 'VIRTUAL',
  fundingSource,
  threeDSecurePassword: THREE_DS,
  ...extra,
});

/** `POST /cards` with an `Idempotency-Key` (a fresh one unless given). */
export const postCard = (p: TestPlatform, body: object, key: string = randomUUID()) =>
  p.post('/cards').set('Idempotency-Key', key).send(body);

function ok<T>(res: { status: number; body: unknown }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A new PROCESSING card of a KYC-approved customer (or `options.customer`), funded by its USD account. */
export async function issuedCard(
  p: TestPlatform,
  options: { customer?: Customer; extra?: Record<string, unknown> } = {},
): Promise<{ card: CardView; customer: Customer; account: InternalAccount }> {
  const customer = options.customer ?? (await kycApprovedCustomer(p));
  const account = await customerAccount(p, customer.id);
  const card = ok<CardView>(await postCard(p, cardBody(customer.id, account.id, options.extra)), 201, 'issue card');
  return { card, customer, account };
}

/** Completes a PROCESSING card's provisioning now, through the sandbox route. */
export async function provisioned(p: TestPlatform, cardId: string, outcome = 'ACTIVE'): Promise<CardView> {
  return ok<CardView>(
    await p.post(`/sandbox/cards/${cardId}/simulate/provisioning`, { outcome }),
    200,
    'simulate provisioning',
  );
}

/** A new ACTIVE card (issued, then provisioned through the sandbox route). */
export async function activeCard(
  p: TestPlatform,
  options: { customer?: Customer; extra?: Record<string, unknown> } = {},
): Promise<{ card: CardView; customer: Customer; account: InternalAccount }> {
  const issued = await issuedCard(p, options);
  return { ...issued, card: await provisioned(p, issued.card.id) };
}

/** A status change body (`status` with its required `substatus` and `reason`). */
export const statusChange = (status: string, substatus = 'OTHER', reason = 'test') => ({ status, substatus, reason });

/** One pass of the provisioning worker over this platform's due cards (tests run no worker on the shared database). */
export const runProvisioning = (t: TestApp, p: TestPlatform) =>
  t.app.get(CardProvisioningService).runOnce({ platformId: parseId('Platform', p.platformId)! });

/**
 * The customer's USDB internal account (a card-eligible funding currency for USD cards), opened
 * through the accounts service: `supportedCurrencies` takes ISO 4217 codes only, so no PATCH
 * /config can add USDB.
 */
export async function usdbAccount(t: TestApp, p: TestPlatform, customerId: string): Promise<InternalAccount> {
  const platformUuid = parseId('Platform', p.platformId)!;
  await t.app
    .get(TransactionService)
    .run((m) => t.app.get(InternalAccountsService).openForCurrencies(m, platformUuid, ['USDB']));
  return customerAccount(p, customerId, 'USDB');
}

/**
 * A new card of `p` in `status` (of `options.customer` when given): PROCESSING as issued;
 * PENDING_KYC provisioned while its cardholder's KYC was PENDING (pass a customer of its own);
 * ACTIVE provisioned; FROZEN and CLOSED by PATCH.
 */
export async function cardIn(
  p: TestPlatform,
  status: string,
  options: { customer?: Customer } = {},
): Promise<CardView> {
  if (status === 'PROCESSING') return (await issuedCard(p, options)).card;
  if (status === 'PENDING_KYC') {
    const { card, customer } = await issuedCard(p);
    ok(await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'PENDING' }), 200, 'KYC PENDING');
    return provisioned(p, card.id);
  }
  const { card } = await activeCard(p, options);
  if (status === 'ACTIVE') return card;
  return ok<CardView>(await p.patch(`/cards/${card.id}`, statusChange(status)), 200, `PATCH to ${status}`);
}
