import { parseId } from '../../src/common/ids.js';
import { OUTBOX_INSERT_SQL } from '../../src/outbox/outbox.service.js';
import { autocannonRun } from '../lib/http.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import type { SuiteResult } from '../lib/report.js';
import { BenchContext, interleaved, Suite } from '../support.js';
import { benchAgent, benchPayer } from './agents.js';

const outboxRow = (type: string, resource: string) =>
  pgbenchStatement(OUTBOX_INSERT_SQL, {
    1: 'gen_random_uuid()',
    2: ':platform',
    3: literal(type),
    4: resource,
    5: "'{}'",
    6: 'now()',
    7: 'now()',
    8: 'NULL',
  });

/**
 * The statements of a platform's `POST /quotes` then `POST /quotes/{id}/execute` to an external
 * account (issue #29), one transaction per request as the app runs them: the quote's lookups (source,
 * destination, the platform's currency limits) and INSERT; then the quote locked, the account
 * locked, the ledger movement and its balance event, the outgoing transaction handed to the rail,
 * the quote's status, the owner's platformCustomerId for the event and OUTGOING_PAYMENT.PENDING.
 * Variables: platform, customer, account, external (uuids).
 */
export const PLATFORM_EXECUTE_PGBENCH = `
BEGIN;
SELECT id, currency, customer_id FROM internal_accounts WHERE id = :account AND platform_id = :platform;
SELECT id, currency, status FROM external_accounts WHERE id = :external AND platform_id = :platform AND deleted_at IS NULL;
SELECT supported_currencies FROM platform_configs WHERE platform_id = :platform;
INSERT INTO quotes (id, platform_id, customer_id, source_account_id, destination_kind, destination_account_id, locked_currency_side, sending_currency, receiving_currency, total_sending_amount, total_receiving_amount, exchange_rate, fees_included, rate_details, transaction_id, status, expires_at, created_at, updated_at) VALUES (gen_random_uuid(), :platform, :customer, :account, 'ExternalAccount', :external, 'SENDING', 'USD', 'USD', 1, 1, 1, 0, '{}', gen_random_uuid(), 'PENDING', now() + interval '5 minutes', now(), now()) RETURNING id AS quote, transaction_id AS tx \\gset
COMMIT;
BEGIN;
SELECT * FROM quotes WHERE id = :quote AND platform_id = :platform FOR UPDATE;
SELECT * FROM internal_accounts WHERE id = :account ORDER BY id FOR UPDATE;
INSERT INTO ledger_entries (id, journal_id, account_id, system_account, platform_id, currency, seq, amount, balance_after, reason, reference, created_at) SELECT gen_random_uuid(), :tx::uuid, id, NULL, platform_id, currency, ledger_seq + 1, -1, balance - 1, 'QUOTE_EXECUTION', 'Transaction:' || :tx, now() FROM internal_accounts WHERE id = :account UNION ALL SELECT gen_random_uuid(), :tx::uuid, NULL, 'RAIL_CLEARING', :platform, 'USD', NULL, 1, NULL, 'QUOTE_EXECUTION', 'Transaction:' || :tx, now();
UPDATE internal_accounts SET balance = balance - 1, ledger_seq = ledger_seq + 1, updated_at = now() WHERE id = :account;
${outboxRow('INTERNAL_ACCOUNT.BALANCE_UPDATED', "'InternalAccount:' || :account")}
INSERT INTO outgoing_transactions (id, platform_id, customer_id, quote_id, status, source_account_id, destination_kind, destination_account_id, sent_amount, sending_currency, received_amount, receiving_currency, exchange_rate, fees, rate_details, created_at, updated_at) VALUES (:tx, :platform, :customer, :quote, 'PENDING', :account, 'ExternalAccount', :external, 1, 'USD', 1, 'USD', 1, 0, '{}', now(), now());
UPDATE quotes SET status = 'PROCESSING', updated_at = now() WHERE id = :quote;
SELECT platform_customer_id FROM customers WHERE id = :customer;
${outboxRow('OUTGOING_PAYMENT.PENDING', "'Transaction:' || :tx")}
COMMIT;
`;

/**
 * A platform's quote-and-execute pair (issue #29) under concurrency, all on one funded account (its
 * row lock serialises the executes: the single-account worst case). On PostgreSQL beside pgbench
 * running the same statements and the bare NestJS app in the same run, with the ratio to the
 * composed floor; on the embedded engine beside the bare app.
 */
export const platformExecute: Suite = {
  name: 'payments',
  engines: ['postgres', 'embedded'],
  async run(ctx: BenchContext): Promise<SuiteResult[]> {
    const { customer, account, external, quoteBody } = await benchAgent(ctx);
    const quotePath = `${new URL(ctx.app.baseUrl).pathname}/quotes`;
    const pairs = (seconds: number) =>
      autocannonRun({
        url: `${ctx.app.baseUrl}/quotes`,
        authorization: ctx.platform.authorization,
        quoteAndExecute: { path: quotePath, body: quoteBody },
        connections: ctx.connections,
        seconds,
      });
    const variables = {
      platform: ctx.platform.platformId,
      customer: parseId('Customer', String(customer.id))!,
      account: parseId('InternalAccount', account)!,
      external: parseId('ExternalAccount', String(external.id))!,
    };
    const bare = (seconds: number) => autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds });
    if (ctx.app.embedded) {
      const runs = await interleaved(ctx, pairs, bare);
      return [
        {
          kind: 'pair',
          engine: ctx.app.engine,
          path: '`POST /quotes` + `/quotes/{id}/execute` (requests/s; one account)',
          reference: 'bare NestJS app',
          ...runs,
        },
      ];
    }
    // PostgreSQL: the app, pgbench running the same statements, and the bare app, in one run; then
    // the same spread over SPREAD accounts (each its own customer), and 32 connections on one
    // account against 32 spread over 32 accounts (the app only).
    const spread = await spreadAccounts(ctx, SPREAD);
    const spreadPairs = (connections: number) => (seconds: number) =>
      autocannonRun({
        url: `${ctx.app.baseUrl}/quotes`,
        authorization: ctx.platform.authorization,
        quoteAndExecute: { path: quotePath, body: spread[0].quoteBody, bodies: spread.map((a) => a.quoteBody) },
        connections,
        seconds,
      });
    const onePairs = (connections: number) => (seconds: number) =>
      autocannonRun({
        url: `${ctx.app.baseUrl}/quotes`,
        authorization: ctx.platform.authorization,
        quoteAndExecute: { path: quotePath, body: quoteBody },
        connections,
        seconds,
      });
    const runs = await interleaved(
      ctx,
      pairs,
      (seconds) =>
        pgbenchRun(ctx.app.databaseUrl, PLATFORM_EXECUTE_PGBENCH, { clients: ctx.connections, seconds, variables }),
      bare,
      spreadPairs(ctx.connections),
      (seconds) =>
        pgbenchRun(ctx.app.databaseUrl, spreadScript(spread), {
          clients: ctx.connections,
          seconds,
          variables: { platform: ctx.platform.platformId },
        }),
    );
    const [bareRuns, spreadRuns, spreadPg] = runs.more;
    const contended = await interleaved(ctx, onePairs(32), spreadPairs(32));
    // A pair is two HTTP requests (two framework passes) and one pgbench transaction pair: the
    // composed floor in pairs/s is 1 / (2/bare + 1/pgbench), the issue's 1/(1/bare + 1/pgbench)
    // with the bare app counted per pair.
    const perPair = (ms: typeof runs.a) => ms.map((m) => ({ ...m, perSecond: m.perSecond / 2 }));
    const floorOf = (pg: typeof runs.a) =>
      pg.map((p, i) => ({ perSecond: 1 / (2 / bareRuns[i].perSecond + 1 / p.perSecond), p50: p.p50, p99: p.p99 }));
    const appPairs = perPair(runs.a);
    return [
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: '`POST /quotes` + `/quotes/{id}/execute` (pairs/s; one account)',
        reference: 'pgbench: the same statements (pairs/s)',
        a: appPairs,
        b: runs.b,
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: 'the same (requests/s)',
        reference: 'bare NestJS app',
        a: runs.a,
        b: bareRuns,
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: 'the same (pairs/s; one account)',
        reference: 'composed floor 1/(2/bare + 1/pgbench) (pairs/s; latency columns: pgbench)',
        target: 0.5,
        a: appPairs,
        b: floorOf(runs.b),
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: `the same over ${SPREAD} accounts (pairs/s)`,
        reference: `composed floor, pgbench over the same ${SPREAD} accounts (pairs/s; latency columns: pgbench)`,
        target: 0.5,
        a: perPair(spreadRuns),
        b: floorOf(spreadPg),
      },
      {
        kind: 'pair',
        engine: ctx.app.engine,
        path: '32 connections on one account (pairs/s)',
        reference: `32 connections over ${SPREAD} accounts (pairs/s)`,
        target: 0.5,
        a: perPair(contended.a),
        b: perPair(contended.b),
      },
    ];
  },
};

/** Accounts the spread runs pay from. */
const SPREAD = 32;

/** `count` funded accounts, each of its own customer with an external account, and its quote body. */
async function spreadAccounts(ctx: BenchContext, count: number) {
  const out: Array<{ customer: string; account: string; external: string; quoteBody: string }> = [];
  for (let i = 0; i < count; i++) {
    const { customer, account, external, quoteBody } = await benchPayer(ctx, 1_000 + i);
    out.push({
      customer: parseId('Customer', String(customer.id))!,
      account: parseId('InternalAccount', account)!,
      external: parseId('ExternalAccount', String(external.id))!,
      quoteBody,
    });
  }
  return out;
}

/** PLATFORM_EXECUTE_PGBENCH over the spread accounts: each transaction pair takes one at random. */
function spreadScript(accounts: Array<{ customer: string; account: string; external: string }>): string {
  const array = (key: 'customer' | 'account' | 'external') =>
    `(ARRAY[${accounts.map((a) => `'${a[key]}'`).join(', ')}]::uuid[])[:n]`;
  return `\\set n random(1, ${accounts.length})
SELECT ${array('customer')} AS customer, ${array('account')} AS account, ${array('external')} AS external \\gset
${PLATFORM_EXECUTE_PGBENCH}`;
}
