import { Injectable } from '@nestjs/common';
import { formatId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { TransactionService } from '../database/transaction.service.js';
import { AuditEventEntity } from './audit-event.entity.js';
import type { AuditEvent, ListAuditEventsQuery } from './audit-events.dto.js';

export function renderAuditEvent(row: AuditEventEntity): AuditEvent {
  return {
    id: formatId('AuditEvent', row.id),
    createdAt: row.createdAt.toISOString(),
    actor: { type: row.actorType, id: row.actorId },
    action: row.action,
    resourceIds: row.resourceIds,
    outcome: { status: row.status, code: row.errorCode },
    requestId: row.requestId,
    sourceAddress: row.sourceAddress,
    userAgent: row.userAgent,
    changedFields: row.changedFields,
    count: row.count,
    lastSeenAt: row.lastSeen ? row.lastSeen.toISOString() : null,
    sequence: row.seq === null ? null : Number(row.seq),
    previousHash: row.prevHash,
    hash: row.hash,
  };
}

/** GET /audit-events: a platform's own events, newest first. */
@Injectable()
export class AuditEventsService {
  constructor(private readonly tx: TransactionService) {}

  list(platformId: string, query: ListAuditEventsQuery): Promise<Page<AuditEvent>> {
    const qb = this.tx.manager
      .createQueryBuilder(AuditEventEntity, 'e')
      // chain: the table's distribution column (src/database/distribution.json), the platform's id here
      .where('e.chain = :platformId AND e.platform_id = :platformId', { platformId });
    if (query.actorId) qb.andWhere('e.actor_id = :actorId', { actorId: query.actorId });
    if (query.action) qb.andWhere('e.action = :action', { action: query.action });
    if (query.resourceId) qb.andWhere(':resourceId = ANY(e.resource_ids)', { resourceId: query.resourceId });
    return paginate(whereTimeRange(qb, 'e', query), query, renderAuditEvent);
  }
}
