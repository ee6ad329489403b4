import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { DateTimeQuery, PageQuery } from './pagination.js';

/** `createdAfter` / `createdBefore` (inclusive ISO 8601 bounds) on a paginated list. */
export class CreatedRangeQuery extends PageQuery {
  @DateTimeQuery('Created at or after this timestamp')
  createdAfter?: string;

  @DateTimeQuery('Created at or before this timestamp')
  createdBefore?: string;
}

/** Created and updated bounds (inclusive) on a paginated list. */
export class TimeRangeQuery extends CreatedRangeQuery {
  @DateTimeQuery('Updated at or after this timestamp')
  updatedAfter?: string;

  @DateTimeQuery('Updated at or before this timestamp')
  updatedBefore?: string;
}

/** Adds the query's time bounds on `<alias>.created_at` / `<alias>.updated_at`. */
export function whereTimeRange<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  range: Partial<TimeRangeQuery>,
): SelectQueryBuilder<T> {
  if (range.createdAfter) qb.andWhere(`${alias}.created_at >= :createdAfter`, { createdAfter: range.createdAfter });
  if (range.createdBefore) qb.andWhere(`${alias}.created_at <= :createdBefore`, { createdBefore: range.createdBefore });
  if (range.updatedAfter) qb.andWhere(`${alias}.updated_at >= :updatedAfter`, { updatedAfter: range.updatedAfter });
  if (range.updatedBefore) qb.andWhere(`${alias}.updated_at <= :updatedBefore`, { updatedBefore: range.updatedBefore });
  return qb;
}
