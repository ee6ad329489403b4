var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
/** The NOTIFY channel a committed event wakes the workers on. */
export const OUTBOX_CHANNEL = 'outbox_events';
/** How many parameters the outbox write takes: event uuid, platform, type, aggregate, envelope JSON, now. */
export const OUTBOX_PARAMETERS = 6;
/**
 * The two parts of the outbox write, with the parameter numbers shifted by `offset`: the upsert of
 * the aggregate's counter (a row per row of `source`, or one row when `source` is null), and the
 * event insert that takes its number from `counter` (and wakes the workers at commit).
 */
const counterUpsert = (offset, source) => {
    const [platform, aggregate] = [offset + 2, offset + 4];
    const values = source
        ? `SELECT $${platform}, $${aggregate}, 1 FROM ${source}`
        : `VALUES ($${platform}, $${aggregate}, 1)`;
    return `INSERT INTO outbox_aggregates (platform_id, aggregate_id, last_seq) ${values}
     ON CONFLICT (platform_id, aggregate_id) DO UPDATE SET last_seq = outbox_aggregates.last_seq + 1
     RETURNING last_seq`;
};
const eventInsert = (offset, counter) => {
    const $ = (n) => `$${offset + n}`;
    return `INSERT INTO outbox_events
     (id, platform_id, type, aggregate_id, seq, body, status, attempt_count, next_attempt_at, retrying_since, created_at)
   SELECT ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${counter}.last_seq, ${$(5)}, 'PENDING', 0, ${$(6)}, ${$(6)}, ${$(6)}
   FROM ${counter}, (SELECT pg_notify('${OUTBOX_CHANNEL}', '')) AS wake
   RETURNING seq`;
};
/**
 * The outbox write (see `OutboxService.write`): $1 event uuid, $2 platform, $3 type, $4 aggregate,
 * $5 envelope JSON, $6 now (`OutboxService.prepare(...).parameters`). Exported for benchmarks that
 * replay a producer's SQL in pgbench.
 */
export const OUTBOX_INSERT_SQL = `WITH counter AS (
     ${counterUpsert(0, null)}
   )
   ${eventInsert(0, 'counter')}`;
/**
 * The outbox write as two CTEs (`outbox_counter`, `outbox_event`) for a producer's own statement,
 * written only for a row of the producer's CTE `source` (at most one row: e.g. an
 * `UPDATE ... WHERE <condition> RETURNING` that matched), so the state change and its event are
 * one statement, both or neither. Its parameters are `$offset+1` to `$offset+6`, in the order of
 * OUTBOX_INSERT_SQL's (`OutboxService.prepare(...).parameters`). Append it to the producer's
 * `WITH` list; build the text once (a module constant), not per request.
 */
export function outboxInsertCtes(source, offset) {
    return `outbox_counter AS (
     ${counterUpsert(offset, source)}
   ),
   outbox_event AS (
     ${eventInsert(offset, 'outbox_counter')}
   )`;
}
/**
 * The outbox writer. Producers call `write` with their transaction's EntityManager, so the event
 * commits or rolls back with the state change it reports: an uncommitted event is never sent, a
 * committed one always is (see OutboxDispatcher).
 */
let OutboxService = class OutboxService {
    clock;
    constructor(clock) {
        this.clock = clock;
    }
    /**
     * Appends the event with the next sequence number of its aggregate, in one statement: the upsert
     * of the aggregate's counter row locks it until commit, so concurrent writers of one aggregate
     * get consecutive numbers in commit order (and a rollback gives its number back). `pg_notify`
     * inside the transaction is delivered to listening workers only when it commits.
     */
    async write(m, input) {
        if (!m.queryRunner?.isTransactionActive) {
            throw new Error('OutboxService.write must run inside the producer transaction');
        }
        const event = this.prepare(input);
        const rows = await m.query(OUTBOX_INSERT_SQL, event.parameters);
        return { uuid: event.uuid, envelope: event.envelope, seq: Number(rows[0].seq) };
    }
    /**
     * The event as `write` would append it (its id, its envelope stamped now), with the parameters of
     * OUTBOX_INSERT_SQL, for a producer that writes it in a statement of its own through
     * `outboxInsertCtes` (the event then commits with that statement, or not at all).
     */
    prepare(input) {
        const uuid = newUuid();
        const now = this.clock.now();
        const envelope = {
            id: formatId('Webhook', uuid),
            type: input.type,
            timestamp: now.toISOString(),
            data: input.data,
        };
        return {
            uuid,
            envelope,
            parameters: [uuid, input.platformId, input.type, input.aggregateId, JSON.stringify(envelope), now],
        };
    }
};
OutboxService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Clock])
], OutboxService);
export { OutboxService };
//# sourceMappingURL=outbox.service.js.map