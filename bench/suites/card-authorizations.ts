/**
 * `POST /sandbox/cards/{id}/simulate/authorization` (approved, a hold placed) over many ACTIVE
 * cards, against pgbench running the same work in plain SQL in one transaction: lock the card row,
 * read the card program, the day's usage (DAY_USAGE_SQL), lock the funding account, insert the hold,
 * update the account, the BALANCE_UPDATED outbox row, insert the card transaction, read the
 * cardholder's platformCustomerId, the CARD_TRANSACTION.AUTHORIZED outbox row, commit. After the run
 * it checks that the AUTHORIZED outbox rows equal the approved card transactions and that every
 * account's `held` equals its open holds.
 */
import { DEFAULT_CARD_PROGRAM } from '../../src/platform-config/card-program.js';
import { CardsRepository } from '../../src/cards/cards.repository.js';
import { DAY_USAGE_SQL } from '../../src/cards/card-transactions.service.js';
import { formatId, newUuid } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { autocannonRun } from '../lib/http.js';
import { OUTBOX_INSERT_SQL } from '../../src/outbox/outbox.service.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import type { SuiteResult, TableResult } from '../lib/report.js';
import { BenchContext, interleaved, Suite } from '../support.js';

const CARDS = Number(process.env.BENCH_CARDS ?? 64);
const FUNDS = 9_000_000_000_000_000;

async function call(ctx: BenchContext, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${ctx.app.baseUrl}${path}`, {
    method,
    headers: { authorization: ctx.platform.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** `count` ACTIVE cards, each of its own funded, KYC-approved customer (platformCardId `bench_<n>`). */
export async function benchCards(ctx: BenchContext, count = CARDS, oneAccount = false): Promise<string[]> {
  const ids: string[] = [];
  let shared: { customerId: string; accountId: string } | undefined;
  for (let n = 1; n <= count; n++) {
    const { customerId, accountId } = shared ?? (await fundedHolder(ctx, n));
    if (oneAccount) shared = { customerId, accountId };
    const id = newUuid();
    const now = new Date();
    await ctx.app.app.get(TransactionService).run((m) =>
      ctx.app.app.get(CardsRepository).insert(m, {
        id,
        platformId: ctx.platform.platformId,
        customerId: customerId.slice('Customer:'.length),
        platformCardId: `${oneAccount ? 'bench1' : 'bench'}_${n}`,
        status: 'ACTIVE',
        statusReason: null,
        form: 'VIRTUAL',
        brand: 'VISA',
        last4: '4242',
        expMonth: 12,
        expYear: 2030,
        currency: 'USD',
        fundingSourceId: accountId.slice('InternalAccount:'.length),
        fundingDetachedAt: null,
        cardCapabilities: DEFAULT_CARD_PROGRAM.cardCapabilities,
        maxSpendPerTransaction: null,
        maxSpendPerDay: null,
        maxTransactionsPerDay: null,
        processorRef: null,
        issuerRef: null,
        provisioningDueAt: null,
        provisioningOutcome: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    ids.push(formatId('Card', id));
  }
  return ids;
}

/** A KYC-approved customer with a funded USD account. */
async function fundedHolder(ctx: BenchContext, n: number): Promise<{ customerId: string; accountId: string }> {
  const customer = await call(ctx, 'POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: `bench-card-${Date.now()}-${n}`,
    region: 'US',
    fullName: 'Bench Holder',
    birthDate: '1990-01-15',
    nationality: 'US',
    address: { line1: '1 Main St', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' },
  });
  const customerId = String(customer.id);
  await call(ctx, 'POST', `/sandbox/customers/${customerId}/kyc`, { kycStatus: 'APPROVED' });
  const accounts = (await (
    await fetch(`${ctx.app.baseUrl}/customers/internal-accounts?customerId=${customerId}&currency=USD`, {
      headers: { authorization: ctx.platform.authorization },
    })
  ).json()) as { data: Array<{ id: string }> };
  const accountId = accounts.data[0].id;
  await call(ctx, 'POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDS });
  return { customerId, accountId };
}

/** The outbox write as OutboxService.write sends it (its own SQL), with a small constant body. */
const outboxWrite = (type: string, aggregate: string) =>
  pgbenchStatement(OUTBOX_INSERT_SQL, {
    1: 'gen_random_uuid()',
    2: ':platform',
    3: literal(type),
    4: aggregate,
    5: `'{"id":"bench"}'`,
    6: 'now()',
    7: 'now()',
    8: 'NULL',
  });

function script(prefix = 'bench'): string {
  return [
    `\\set n random(1, ${CARDS})`,
    'BEGIN;',
    `SELECT id AS card_id, customer_id, funding_source_id AS account_id FROM cards WHERE platform_id = :platform AND platform_card_id = '${prefix}_' || :n FOR UPDATE \\gset`,
    'SELECT card_program, card_configs FROM platform_configs WHERE platform_id = :platform;',
    pgbenchStatement(DAY_USAGE_SQL, {
      1: ':card_id',
      2: "date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'",
      3: "(date_trunc('day', now() AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC'",
    }),
    'SELECT balance, held, ledger_seq FROM internal_accounts WHERE id = :account_id FOR UPDATE;',
    `INSERT INTO ledger_holds (id, account_id, platform_id, amount, remaining, status, reason, reference, created_at, updated_at) VALUES (gen_random_uuid(), :account_id, :platform, 1, 1, 'OPEN', 'CARD_AUTHORIZATION', 'Transaction:' || md5(random()::text), now(), now()) RETURNING id AS hold_id \\gset`,
    'UPDATE internal_accounts SET held = held + 1, updated_at = now() WHERE id = :account_id;',
    outboxWrite('INTERNAL_ACCOUNT.BALANCE_UPDATED', "'InternalAccount:' || :account_id"),
    `INSERT INTO card_transactions (id, platform_id, card_id, customer_id, account_id, direction, status, declined_reason, original_transaction_id, issuer_transaction_token, currency, merchant, authorized_amount, reversed_amount, settled_amount, refunded_amount, hold_id, pull_outcome, authorized_at, created_at, updated_at) VALUES (gen_random_uuid(), :platform, :card_id, :customer_id, :account_id, 'DEBIT', 'AUTHORIZED', NULL, NULL, md5(random()::text), 'USD', '{"descriptor":"BENCH COFFEE"}', 1, 0, 0, 0, :hold_id, 'OK', now(), now(), now());`,
    'SELECT platform_customer_id FROM customers WHERE id = :customer_id;',
    outboxWrite('CARD_TRANSACTION.AUTHORIZED', "'Transaction:' || md5(random()::text)"),
    'COMMIT;',
    '',
  ].join('\n');
}

/** After the run: AUTHORIZED events = approved transactions, and held = open holds on every account. */
async function check(ctx: BenchContext): Promise<TableResult> {
  const [row] = await ctx.app.app.get(TransactionService).run((m) =>
    m.query<Array<{ events: number; approved: number; mismatched: number }>>(
      `SELECT (SELECT count(*)::int FROM outbox_events WHERE platform_id = $1 AND type = 'CARD_TRANSACTION.AUTHORIZED') AS events,
              (SELECT count(*)::int FROM card_transactions WHERE platform_id = $1 AND status = 'AUTHORIZED') AS approved,
              (SELECT count(*)::int FROM internal_accounts a WHERE a.platform_id = $1 AND a.held <>
                 (SELECT COALESCE(sum(remaining), 0) FROM ledger_holds h WHERE h.account_id = a.id AND h.status = 'OPEN')) AS mismatched`,
      [ctx.platform.platformId],
    ),
  );
  const ok = row.events === row.approved && row.mismatched === 0;
  return {
    kind: 'table',
    title: 'Card authorizations: consistency after the run',
    markdown: `${ok ? 'ok' : 'PROBLEM'}: ${row.approved} approved transactions, ${row.events} CARD_TRANSACTION.AUTHORIZED events (service and pgbench rows), ${row.mismatched} accounts whose held differs from their open holds`,
  };
}

export const cardAuthorizations: Suite = {
  name: 'card-authorizations',
  engines: ['postgres'],
  async run(ctx: BenchContext): Promise<SuiteResult[]> {
    const measure = async (oneAccount: boolean) => {
      const cards = await benchCards(ctx, CARDS, oneAccount);
      const paths = cards.map((id) => `/2025-10-13/sandbox/cards/${id}/simulate/authorization`);
      return interleaved(
        ctx,
        (seconds) =>
          autocannonRun({
            url: `${ctx.app.origin}${paths[0]}`,
            paths,
            body: 'card-authorization',
            authorization: ctx.platform.authorization,
            connections: ctx.connections,
            seconds,
          }),
        (seconds) =>
          pgbenchRun(ctx.app.databaseUrl, script(oneAccount ? 'bench1' : 'bench'), {
            clients: ctx.connections,
            seconds,
            variables: { platform: ctx.platform.platformId },
          }),
        (seconds) => autocannonRun({ url: ctx.bareUrl, connections: ctx.connections, seconds }),
      );
    };
    const results: SuiteResult[] = [];
    for (const oneAccount of [false, true]) {
      const runs = await measure(oneAccount);
      const where = oneAccount ? `${CARDS} cards on one account` : `${CARDS} cards, an account each`;
      results.push(
        {
          kind: 'pair',
          engine: ctx.app.engine,
          path: `\`POST /sandbox/cards/{id}/simulate/authorization\` (approved, hold placed; ${where})`,
          reference: 'pgbench: the same transaction in plain SQL',
          a: runs.a,
          b: runs.b,
        },
        {
          kind: 'pair',
          engine: ctx.app.engine,
          path: `the same (${where})`,
          reference: 'composed floor 1/(1/bare + 1/pgbench) (latency columns: pgbench)',
          target: 0.5,
          a: runs.a,
          b: runs.b.map((p, i) => ({
            perSecond: 1 / (1 / runs.more[0][i].perSecond + 1 / p.perSecond),
            p50: p.p50,
            p99: p.p99,
          })),
        },
      );
    }
    return [...results, await check(ctx)];
  },
};
