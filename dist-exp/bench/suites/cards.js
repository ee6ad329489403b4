import { randomUUID } from 'node:crypto';
import { formatId, newUuid } from '../../src/common/ids.js';
import { renderCard } from '../../src/cards/card.render.js';
import { CardsRepository, FIND_CARD_SQL, INSERT_HISTORY_SQL, LOCK_CARD_SQL, UPDATE_CARD_SQL, } from '../../src/cards/cards.repository.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { OUTBOX_INSERT_SQL } from '../../src/outbox/outbox.service.js';
import { DEFAULT_CARD_PROGRAM } from '../../src/platform-config/card-program.js';
import { autocannonRun } from '../lib/http.js';
import { literal, pgbenchRun, pgbenchStatement } from '../lib/pgbench.js';
import { interleaved } from '../support.js';
/** Cards toggled by the HTTP runs, and (separately) by pgbench. */
const CARDS = 256;
const CONCURRENCY = [8, 32];
/** The uuid of pgbench's card n (1..CARDS), as an SQL expression of the pgbench variable `:n`. */
const PGBENCH_CARD = `('00000000-0000-7000-8000-' || lpad(:n::text, 12, '0'))::uuid`;
const pgbenchCardUuid = (n) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
/** The other of ACTIVE and FROZEN than the locked card's `:status` (set by `\gset`). */
const TOGGLED = `(CASE :status::text WHEN 'ACTIVE' THEN 'FROZEN' ELSE 'ACTIVE' END)`;
async function api(ctx, method, path, body, key) {
    const res = await fetch(`${ctx.app.baseUrl}${path}`, {
        method,
        headers: {
            authorization: ctx.platform.authorization,
            'content-type': 'application/json',
            ...(key ? { 'idempotency-key': key } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json());
    if (!res.ok)
        throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
}
/**
 * pgbench's reference for the PATCH: the same work in plain SQL, as the issue defines it: BEGIN,
 * lock the card row (`\gset` its status), update it, insert the history row, insert the outbox row,
 * COMMIT; each statement the repository's or the outbox's own. The next status is the other of
 * ACTIVE and FROZEN than the locked row's; unchanged columns are written back as themselves.
 * (pgbench substitutes `:name` even inside quoted literals, so every value with a colon, such as
 * the envelope JSON, the actor and the `Card:` prefix, is a variable: `-D`, sent as a parameter.)
 */
export function patchScript() {
    const lock = pgbenchStatement(LOCK_CARD_SQL, { 1: PGBENCH_CARD, 2: ':platform' }).replace(/;$/, ' \\gset');
    const update = pgbenchStatement(UPDATE_CARD_SQL, {
        1: PGBENCH_CARD,
        2: ':platform',
        3: TOGGLED,
        4: 'NULL',
        5: 'brand',
        6: 'last4',
        7: 'exp_month',
        8: 'exp_year',
        9: 'funding_source_id',
        10: 'funding_detached_at',
        11: 'max_spend_per_transaction',
        12: 'max_spend_per_day',
        13: 'max_transactions_per_day',
        14: 'processor_ref',
        15: 'issuer_ref',
        16: 'provisioning_due_at',
        17: 'provisioning_outcome',
        18: 'now()',
    });
    const history = pgbenchStatement(INSERT_HISTORY_SQL, {
        1: 'gen_random_uuid()',
        2: PGBENCH_CARD,
        3: ':platform',
        4: ':actor::text',
        5: ':status::text',
        6: TOGGLED,
        7: literal('OTHER'),
        8: literal('bench toggle'),
        9: 'NULL',
        10: 'now()',
    });
    const outbox = pgbenchStatement(OUTBOX_INSERT_SQL, {
        1: 'gen_random_uuid()',
        2: ':platform',
        3: literal('CARD.STATUS_CHANGE'),
        4: `(:cardprefix::text || ${PGBENCH_CARD}::text)`,
        5: ':envelope::jsonb',
        6: 'now()',
    });
    return [`\\set n random(1, ${CARDS})`, 'BEGIN;', lock, update, history, outbox, 'COMMIT;', ''].join('\n');
}
/**
 * `PATCH /cards/{id}` toggling freeze/unfreeze over many ACTIVE cards, and `GET /cards/{id}`, at
 * concurrency 8 and 32, each beside pgbench running the same SQL; then checks that the outbox
 * holds exactly one CARD.STATUS_CHANGE per recorded transition.
 */
export const cards = {
    name: 'cards',
    engines: ['postgres'],
    async run(ctx) {
        // Cardholder, funding account, and the HTTP cards (issued and provisioned through the API).
        const customer = await api(ctx, 'POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Bench Holder' });
        await api(ctx, 'POST', `/sandbox/customers/${String(customer.id)}/kyc`, { kycStatus: 'APPROVED' });
        const accounts = await api(ctx, 'GET', `/customers/internal-accounts?customerId=${String(customer.id)}&currency=USD`);
        const account = accounts.data[0].id;
        const httpCards = [];
        for (let i = 0; i < CARDS; i++) {
            const card = await api(ctx, 'POST', '/cards', { customerId: customer.id, form: 'VIRTUAL', fundingSource: account, threeDSecurePassword: 'Bench-1234' }, randomUUID());
            await api(ctx, 'POST', `/sandbox/cards/${String(card.id)}/simulate/provisioning`, { outcome: 'ACTIVE' });
            httpCards.push(card.id);
        }
        // pgbench's cards: rows with predictable ids, ACTIVE, the same cardholder and account.
        const tx = ctx.app.app.get(TransactionService);
        const repo = ctx.app.app.get(CardsRepository);
        const customerUuid = String(customer.id).slice('Customer:'.length);
        const accountUuid = account.slice('InternalAccount:'.length);
        let sample = null;
        await tx.run(async (m) => {
            for (let n = 1; n <= CARDS; n++) {
                const now = new Date();
                const row = {
                    id: pgbenchCardUuid(n),
                    platformId: ctx.platform.platformId,
                    customerId: customerUuid,
                    platformCardId: `pgbench-${n}`,
                    status: 'ACTIVE',
                    statusReason: null,
                    form: 'VIRTUAL',
                    brand: 'VISA',
                    last4: '4242',
                    expMonth: 12,
                    expYear: 2029,
                    currency: 'USD',
                    fundingSourceId: accountUuid,
                    fundingDetachedAt: null,
                    cardCapabilities: DEFAULT_CARD_PROGRAM.cardCapabilities,
                    maxSpendPerTransaction: null,
                    maxSpendPerDay: null,
                    maxTransactionsPerDay: null,
                    processorRef: `sandbox_card_${n}`,
                    issuerRef: `sandbox_issuer_${n}`,
                    provisioningDueAt: null,
                    provisioningOutcome: null,
                    createdAt: now,
                    updatedAt: now,
                };
                await repo.insert(m, row);
                sample = row;
            }
        });
        const envelope = JSON.stringify({
            id: formatId('Webhook', newUuid()),
            type: 'CARD.STATUS_CHANGE',
            timestamp: new Date().toISOString(),
            data: renderCard({ ...sample, status: 'FROZEN' }),
        });
        const patchSql = patchScript();
        const getSql = `\\set n random(1, ${CARDS})\n${pgbenchStatement(FIND_CARD_SQL, { 1: PGBENCH_CARD, 2: ':platform' })}\n`;
        const variables = { platform: ctx.platform.platformId };
        const patchVariables = { ...variables, envelope, actor: 'Token:bench', cardprefix: 'Card:' };
        const results = [];
        for (const connections of CONCURRENCY) {
            const c = { ...ctx, connections };
            const patch = await interleaved(c, (seconds) => autocannonRun({
                url: `${ctx.app.baseUrl}/cards`,
                authorization: ctx.platform.authorization,
                toggleCards: httpCards,
                connections,
                seconds,
            }), (seconds) => pgbenchRun(ctx.app.databaseUrl, patchSql, { clients: connections, seconds, variables: patchVariables }));
            results.push({
                kind: 'pair',
                engine: ctx.app.engine,
                path: `\`PATCH /cards/{id}\` freeze/unfreeze, c=${connections}`,
                reference: 'pgbench: BEGIN, lock, update, history, outbox, COMMIT',
                ...(connections === 8 ? { target: 0.6 } : {}),
                ...patch,
            });
            const get = await interleaved(c, (seconds) => autocannonRun({
                url: `${ctx.app.baseUrl}/cards/${httpCards[0]}`,
                authorization: ctx.platform.authorization,
                connections,
                seconds,
            }), (seconds) => pgbenchRun(ctx.app.databaseUrl, getSql, { clients: connections, seconds, variables }));
            results.push({
                kind: 'pair',
                engine: ctx.app.engine,
                path: `\`GET /cards/{id}\`, c=${connections}`,
                reference: 'pgbench: the same SELECT',
                ...(connections === 8 ? { target: 0.25 } : {}),
                ...get,
            });
        }
        // Every recorded transition has exactly one outbox row, and nothing else wrote one.
        const [counts] = await tx.manager.query(`SELECT (SELECT count(*)::int FROM card_status_history h
                WHERE h.platform_id = $1 AND h.from_status IS NOT NULL) AS transitions,
              (SELECT count(*)::int FROM outbox_events e
                WHERE e.platform_id = $1 AND e.type = 'CARD.STATUS_CHANGE') AS events`, [ctx.platform.platformId]);
        if (counts.transitions !== counts.events)
            throw new Error(`cards: ${counts.events} CARD.STATUS_CHANGE rows for ${counts.transitions} transitions`);
        results.push({
            kind: 'table',
            title: 'Cards: outbox rows against transitions',
            markdown: `After the runs: ${counts.transitions.toLocaleString('en-US')} status transitions recorded (HTTP and pgbench, provisioning included), ${counts.events.toLocaleString('en-US')} \`CARD.STATUS_CHANGE\` outbox rows: equal.`,
        });
        return results;
    },
};
//# sourceMappingURL=cards.js.map