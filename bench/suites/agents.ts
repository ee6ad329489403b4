import { parseId } from '../../src/common/ids.js';
import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { autocannonRun } from '../lib/http.js';
import { OUTBOX_INSERT_SQL } from '../../src/outbox/outbox.service.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import type { SuiteResult } from '../lib/report.js';
import { BenchContext, interleaved, Suite } from '../support.js';

/**
 * The statements of one quote-and-execute pair as the two requests send them, for `pgbench -M
 * prepared` (one transaction per request, as the app runs them): the quote's lookups and INSERT,
 * then the execution with the agent row locked, the policy read, the quote and the account
 * locked, the ledger movement with its outbox event, the transaction, the quote, the counters and
 * the action. Variables: platform, agent, customer, account, external (uuids).
 */
export const AGENT_EXECUTE_PGBENCH = `
BEGIN;
SELECT id, currency FROM internal_accounts WHERE id = :account AND platform_id = :platform AND customer_id = :customer;
SELECT id, currency FROM external_accounts WHERE id = :external AND platform_id = :platform AND customer_id = :customer AND deleted_at IS NULL;
SELECT policy FROM agents WHERE id = :agent;
INSERT INTO quotes (id, platform_id, agent_id, customer_id, source_account_id, destination_kind, destination_account_id, locked_currency_side, sending_currency, receiving_currency, total_sending_amount, total_receiving_amount, exchange_rate, fees_included, rate_details, transaction_id, status, expires_at, created_at, updated_at) VALUES (gen_random_uuid(), :platform, :agent, :customer, :account, 'ExternalAccount', :external, 'SENDING', 'USD', 'USD', 1, 1, 1, 0, '{}', gen_random_uuid(), 'PENDING', now() + interval '5 minutes', now(), now()) RETURNING id AS quote, transaction_id AS tx \\gset
COMMIT;
BEGIN;
SELECT * FROM agents WHERE id = :agent AND platform_id = :platform AND deleted_at IS NULL FOR UPDATE;
SELECT * FROM quotes WHERE id = :quote AND agent_id = :agent AND platform_id = :platform FOR UPDATE;
SELECT EXISTS (SELECT 1 FROM agent_actions WHERE quote_id = :quote);
SELECT * FROM internal_accounts WHERE id = :account ORDER BY id FOR UPDATE;
INSERT INTO ledger_entries (id, journal_id, account_id, system_account, platform_id, currency, seq, amount, balance_after, reason, reference, created_at) SELECT gen_random_uuid(), :tx, id, NULL, platform_id, currency, ledger_seq + 1, -1, balance - 1, 'AGENT_QUOTE_EXECUTION', 'Transaction:' || :tx, now() FROM internal_accounts WHERE id = :account UNION ALL SELECT gen_random_uuid(), :tx, NULL, 'RAIL_CLEARING', :platform, 'USD', NULL, 1, NULL, 'AGENT_QUOTE_EXECUTION', 'Transaction:' || :tx, now();
UPDATE internal_accounts SET balance = balance - 1, ledger_seq = ledger_seq + 1, updated_at = now() WHERE id = :account;
${pgbenchStatement(OUTBOX_INSERT_SQL, {
  1: 'gen_random_uuid()',
  2: ':platform',
  3: literal('INTERNAL_ACCOUNT.BALANCE_UPDATED'),
  4: "'InternalAccount:' || :account",
  5: "'{}'",
  6: 'now()',
  7: 'now()',
  8: 'NULL',
})}
INSERT INTO outgoing_transactions (id, platform_id, customer_id, agent_id, quote_id, status, source_account_id, destination_kind, destination_account_id, sent_amount, sending_currency, received_amount, receiving_currency, exchange_rate, fees, rate_details, settled_at, created_at, updated_at) VALUES (:tx, :platform, :customer, :agent, :quote, 'COMPLETED', :account, 'ExternalAccount', :external, 1, 'USD', 1, 'USD', 1, 0, '{}', now(), now(), now());
UPDATE quotes SET status = 'COMPLETED', updated_at = now() WHERE id = :quote;
UPDATE agents SET daily_transaction_count = daily_transaction_count + 1, daily_spend = daily_spend + 1, monthly_spend = monthly_spend + 1 WHERE id = :agent;
INSERT INTO agent_actions (id, platform_id, agent_id, customer_id, type, quote_id, status, created_at, updated_at) VALUES (gen_random_uuid(), :platform, :agent, :customer, 'EXECUTE_QUOTE', :quote, 'APPROVED', now(), now());
SELECT platform_customer_id FROM customers WHERE id = :customer;
COMMIT;
`;

async function call(ctx: BenchContext, method: string, path: string, body?: unknown, authorization?: string) {
  const res = await fetch(`${ctx.app.baseUrl}${path}`, {
    method,
    headers: { authorization: authorization ?? ctx.platform.authorization, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * A funded customer, a USD external account and an AUTO agent (CREATE_QUOTES, EXECUTE_QUOTES):
 * the agent's Bearer header and a $0.01 quote body from the account to the external account.
 */
/** A funded customer account with an external account to pay, and the quote body between them. */
export async function benchPayer(ctx: BenchContext, seed = 7) {
  const customer = await call(ctx, 'POST', '/customers', { customerType: 'INDIVIDUAL' });
  const accounts = await call(
    ctx,
    'GET',
    `/customers/internal-accounts?customerId=${String(customer.id)}&currency=USD`,
  );
  const account = (accounts.data as Array<{ id: string }>)[0].id;
  await call(ctx, 'POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 9_000_000_000_000 });
  const external = await call(ctx, 'POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: exampleAccountInfo('USD_ACCOUNT', seed),
  });
  const quoteBody = JSON.stringify({
    source: { sourceType: 'ACCOUNT', accountId: account },
    destination: { destinationType: 'ACCOUNT', accountId: external.id },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 1,
  });
  return { customer, account, external, quoteBody };
}

export async function benchAgent(ctx: BenchContext) {
  const { customer, account, external, quoteBody } = await benchPayer(ctx);
  const created = await call(ctx, 'POST', '/agents', {
    name: 'Bench agent',
    customerId: customer.id,
    policy: {
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000 },
    },
  });
  const { agent, deviceCode } = created as { agent: { id: string }; deviceCode: { code: string } };
  const redeemed = await call(ctx, 'POST', `/agents/device-codes/${deviceCode.code}/redeem`);
  const bearer = `Bearer ${String(redeemed.accessToken)}`;
  return { customer, account, external, agent, bearer, quoteBody };
}

/**
 * An agent's quote-and-execute pair (AUTO, no approval) under concurrency: every request of one
 * agent locks its row, so this is the single-agent worst case, serialised on that lock. Beside
 * pgbench running the same statements (PostgreSQL), or the bare app (embedded).
 */
export const agentExecute: Suite = {
  name: 'agents',
  engines: ['postgres', 'embedded'],
  async run(ctx: BenchContext): Promise<SuiteResult[]> {
    const { customer, account, external, agent, bearer, quoteBody } = await benchAgent(ctx);
    const quotePath = `${new URL(ctx.app.baseUrl).pathname}/agents/me/quotes`;
    const pairs = (seconds: number) =>
      autocannonRun({
        url: `${ctx.app.baseUrl}/agents/me/quotes`,
        authorization: bearer,
        quoteAndExecute: {
          path: quotePath,
          body: quoteBody,
        },
        connections: ctx.connections,
        seconds,
      });
    const variables = {
      platform: ctx.platform.platformId,
      agent: parseId('Agent', agent.id)!,
      customer: parseId('Customer', String(customer.id))!,
      account: parseId('InternalAccount', account)!,
      external: parseId('ExternalAccount', String(external.id))!,
    };
    const runs = await interleaved(
      ctx,
      pairs,
      ctx.app.embedded
        ? (seconds) => autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds })
        : (seconds) =>
            pgbenchRun(ctx.app.databaseUrl, AGENT_EXECUTE_PGBENCH, { clients: ctx.connections, seconds, variables }),
    );
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: '`POST /agents/me/quotes` + `/execute` (requests/s; one agent)',
        reference: ctx.app.embedded ? 'bare NestJS app' : 'pgbench: the same statements (pairs/s)',
        ...runs,
      },
    ];
  },
};
