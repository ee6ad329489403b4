import type { DataSource } from 'typeorm';
import { formatId, isUuid } from '../common/ids.js';
import { AuditEventEntity } from './audit-event.entity.js';
import { ActorType, canonical, contentDigest, linkHash, NIL_CHAIN } from './audit-record.js';
import { renderAuditEvent } from './audit-events.service.js';

const BATCH = 1000;

/** The first link that does not hold, when one does not. */
export interface ChainBreak {
  chain: string;
  /** null: an unsealed event */
  seq: number | null;
  id: string | null;
  problem: string;
}

export interface VerifyResult {
  ok: boolean;
  chains: number;
  /** sealed events checked */
  events: number;
  /** events appended but not yet sealed (each checked against its digest) */
  unsealed: number;
  broken?: ChainBreak;
}

const chainName = (chain: string) => (chain === NIL_CHAIN ? 'unattributed' : formatId('Platform', chain));

/** The sealed events of `chain` (all chains when null) in chain order, BATCH rows at a time. */
async function* walk(db: DataSource, platform: string | null): AsyncGenerator<AuditEventEntity> {
  let after: [string, string] = ['00000000-0000-0000-0000-000000000000', '0'];
  let first = true;
  for (;;) {
    const qb = db
      .createQueryBuilder(AuditEventEntity, 'e')
      .comment('cross-shard: audit-verify')
      .where('e.seq IS NOT NULL');
    if (platform) qb.andWhere('e.chain = :platform', { platform });
    if (!first) qb.andWhere('(e.chain, e.seq) > (:chain, :seq)', { chain: after[0], seq: after[1] });
    const rows = await qb.orderBy('e.chain', 'ASC').addOrderBy('e.seq', 'ASC').take(BATCH).getMany();
    for (const row of rows) yield row;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = [last.chain, last.seq!];
    first = false;
  }
}

/** The unsealed events (of one chain, or all), in append order, BATCH rows at a time. */
async function* unsealedTail(db: DataSource, platform: string | null): AsyncGenerator<AuditEventEntity> {
  let after = '0';
  for (;;) {
    const qb = db
      .createQueryBuilder(AuditEventEntity, 'e')
      .comment('cross-shard: audit-verify')
      .where('e.hash IS NULL')
      .andWhere('e.pos > :after', { after });
    if (platform) qb.andWhere('e.chain = :platform', { platform });
    const rows = await qb.orderBy('e.pos', 'ASC').take(BATCH).getMany();
    for (const row of rows) yield row;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].pos;
  }
}

/** The record as hashed (see `canonical`), from a stored row. */
function storedCanonical(row: AuditEventEntity): string {
  return canonical({
    id: row.id,
    platformId: row.platformId,
    createdAt: row.createdAt,
    actorType: row.actorType as ActorType,
    actorId: row.actorId,
    action: row.action,
    resourceIds: row.resourceIds,
    status: row.status,
    errorCode: row.errorCode,
    requestId: row.requestId,
    sourceAddress: row.sourceAddress,
    userAgent: row.userAgent,
    changedFields: row.changedFields,
    count: row.count,
    lastSeen: row.lastSeen,
  });
}

/** Whether the row still matches the digest it was appended with (events appended before digests: no claim). */
const digestHolds = (row: AuditEventEntity, text: string): boolean =>
  row.digest === null || contentDigest(text) === row.digest;

/**
 * Walks every chain (or one platform's) in order and checks each sealed event's link: consecutive sequence
 * numbers, each event's `prev_hash` equal to the previous event's hash, each hash recomputed from
 * the row, and the chain's head (the last number and hash the writer holds) matching its last
 * event, so a deleted or altered event anywhere, the oldest and the newest included, is named. A
 * chain starts just after its floor: the last event the retention job deleted (recorded on the
 * head), or at number 1. Then the unsealed tail (events the sealer has not linked yet): each must
 * still match the digest it was appended with; how many there are is reported.
 */
export async function verifyChains(db: DataSource, platformUuid: string | null = null): Promise<VerifyResult> {
  if (platformUuid !== null && !isUuid(platformUuid)) throw new Error('not a platform id');
  const heads = new Map<string, { seq: number; hash: string; floorSeq: number; floorHash: string | null }>();
  const columns = 'SELECT /* cross-shard: audit-verify */ chain, seq, hash, floor_seq, floor_hash FROM audit_heads';
  const headRows = await db.query<
    Array<{ chain: string; seq: string; hash: string; floor_seq: string; floor_hash: string | null }>
  >(platformUuid ? `${columns} WHERE chain = $1` : columns, platformUuid ? [platformUuid] : []);
  for (const h of headRows) {
    heads.set(h.chain, { seq: Number(h.seq), hash: h.hash, floorSeq: Number(h.floor_seq), floorHash: h.floor_hash });
  }

  let events = 0;
  const seen = new Set<string>();
  let prev: AuditEventEntity | null = null;
  let unsealed = 0;
  const broken = (row: AuditEventEntity | null, chain: string, seq: number | null, problem: string): VerifyResult => ({
    ok: false,
    chains: seen.size,
    events,
    unsealed,
    broken: { chain: chainName(chain), seq, id: row ? formatId('AuditEvent', row.id) : null, problem },
  });
  const endOfChain = (last: AuditEventEntity): VerifyResult | null => {
    const head = heads.get(last.chain);
    const seq = Number(last.seq);
    if (!head) return broken(last, last.chain, seq, 'the chain has no head');
    if (head.seq !== seq)
      return broken(null, last.chain, seq + 1, `events after ${seq} are missing (head at ${head.seq})`);
    if (head.hash !== last.hash) return broken(last, last.chain, seq, "the last event's hash differs from the head's");
    return null;
  };

  for await (const row of walk(db, platformUuid)) {
    const seq = Number(row.seq);
    const sameChain = prev !== null && prev.chain === row.chain;
    if (prev && !sameChain) {
      const end = endOfChain(prev);
      if (end) return end;
    }
    if (!sameChain) seen.add(row.chain);
    if (sameChain) {
      if (seq !== Number(prev!.seq) + 1) return broken(null, row.chain, Number(prev!.seq) + 1, 'the event is missing');
      if (row.prevHash !== prev!.hash) return broken(row, row.chain, seq, "prev_hash is not the previous event's hash");
    } else {
      // The chain starts just after its floor (the last event retention deleted; 0 when none).
      const floor = heads.get(row.chain);
      const floorSeq = floor?.floorSeq ?? 0;
      if (seq > floorSeq + 1) return broken(null, row.chain, floorSeq + 1, 'the event is missing');
      if (row.prevHash !== (floor?.floorHash ?? null))
        return broken(row, row.chain, seq, "prev_hash is not the previous event's hash");
    }
    const text = storedCanonical(row);
    if (linkHash(row.prevHash, text) !== row.hash || !digestHolds(row, text))
      return broken(row, row.chain, seq, 'the hash does not match the event (altered)');
    events++;
    prev = row;
  }
  if (prev) {
    const end = endOfChain(prev);
    if (end) return end;
  }
  for (const [chain, head] of heads) {
    if (!seen.has(chain) && head.seq !== head.floorSeq)
      return broken(null, chain, head.floorSeq + 1, 'the event is missing');
  }
  for await (const row of unsealedTail(db, platformUuid)) {
    if (!digestHolds(row, storedCanonical(row)))
      return broken(row, row.chain, null, 'the unsealed event does not match its digest (altered)');
    unsealed++;
  }
  return { ok: true, chains: seen.size, events, unsealed };
}

/** Every event created at or after `since` (oldest first), as JSON-line objects, BATCH at a time. */
export async function* exportEvents(db: DataSource, since: Date): AsyncGenerator<Record<string, unknown>> {
  let after: [Date, string] | null = null;
  for (;;) {
    const qb = db
      .createQueryBuilder(AuditEventEntity, 'e')
      .comment('cross-shard: audit-export')
      .where('e.created_at >= :since', { since });
    if (after) qb.andWhere('(e.created_at, e.id) > (:at, :id)', { at: after[0], id: after[1] });
    const rows = await qb.orderBy('e.created_at', 'ASC').addOrderBy('e.id', 'ASC').take(BATCH).getMany();
    for (const row of rows) {
      yield {
        platformId: row.platformId === null ? null : formatId('Platform', row.platformId),
        ...renderAuditEvent(row),
      };
    }
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = [last.createdAt, last.id];
  }
}
