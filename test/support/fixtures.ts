import { individual } from './customers.js';
import type { TestPlatform } from './test-app.js';

/** A customer as the API renders it (the members fixtures and tests look at). */
export interface Customer {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  kycStatus: string;
  kybStatus?: string;
  platformCustomerId: string;
  updatedAt: string;
  [member: string]: unknown;
}

/** An internal account as the API renders it. */
export interface InternalAccount {
  id: string;
  customerId?: string;
  type: string;
  status: string;
  balance: { amount: number; currency: { code: string; name: string; symbol: string; decimals: number } };
  totalBalance: { amount: number; currency: { code: string } };
  updatedAt: string;
  [member: string]: unknown;
}

/**
 * The spec's USD_ACCOUNT create body for `POST /platform/external-accounts`, with a fresh
 * `platformAccountId` each call; `info` replaces members of `accountInfo` (and of its beneficiary).
 */
export function usdAccountBody(info: Record<string, unknown> = {}, beneficiary: Record<string, unknown> = {}) {
  return {
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '12345678901',
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      platformAccountId: `ext_${Math.random().toString(36).slice(2)}`,
      ...info,
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'John Doe',
        birthDate: '1990-01-15',
        nationality: 'US',
        ...beneficiary,
      },
    },
  };
}

function ok<T>(res: { status: number; body: unknown }, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A new customer (an individual unless `body` says otherwise), UNVERIFIED as every customer starts. */
export async function newCustomer(p: TestPlatform, body: object = individual()): Promise<Customer> {
  return ok<Customer>(await p.post('/customers', body), 201, 'create customer');
}

/** A new customer whose KYC (KYB for a business) the sandbox approved. */
export async function kycApprovedCustomer(p: TestPlatform, body: object = individual()): Promise<Customer> {
  const customer = await newCustomer(p, body);
  return ok<Customer>(
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' }),
    200,
    'approve KYC',
  );
}

/** The customer's internal account in `currency` (each customer gets one per supported currency). */
export async function customerAccount(p: TestPlatform, customerId: string, currency = 'USD'): Promise<InternalAccount> {
  const page = ok<{ data: InternalAccount[] }>(
    await p.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}&type=INTERNAL_FIAT`),
    200,
    'list accounts',
  );
  if (page.data.length !== 1) throw new Error(`customer ${customerId} has no ${currency} account`);
  return page.data[0];
}

/**
 * A KYC-approved customer (or `options.customer`) whose `currency` account the sandbox funded with
 * `amount` minor units; `account` is the funding's answer (balance included).
 */
export async function fundedAccount(
  p: TestPlatform,
  amount: number,
  options: { customer?: Customer; currency?: string } = {},
): Promise<{ customer: Customer; account: InternalAccount }> {
  const customer = options.customer ?? (await kycApprovedCustomer(p));
  const { id } = await customerAccount(p, customer.id, options.currency);
  const account = ok<InternalAccount>(
    await p.post(`/sandbox/internal-accounts/${id}/fund`, { amount }),
    200,
    'fund account',
  );
  return { customer, account };
}

/**
 * Sets the platform's `supportedCurrencies` to these codes (each customer gets an account in
 * every one of them) with permissive amounts and no counterparty fields.
 */
export async function supportCurrencies(p: TestPlatform, codes: string[]): Promise<void> {
  const res = await p.patch('/config', {
    supportedCurrencies: codes.map((currencyCode) => ({
      currencyCode,
      minAmount: 1,
      maxAmount: 1000000,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ['CARD'],
    })),
  });
  ok(res, 200, 'PATCH /config supportedCurrencies');
}
