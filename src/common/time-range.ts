import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { DateTimeQuery, PageQuery } from './pagination.js';
import type { SortOrder } from './pagination.js';
import { EnumField } from './validation.js';

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

/** The reference's `startDate` / `endDate` (inclusive bounds on creation) and `sortOrder` on a paginated list. */
export class DateRangeQuery extends PageQuery {
  @DateTimeQuery('Created at or after this timestamp (inclusive)')
  startDate?: string;

  @DateTimeQuery('Created at or before this timestamp (inclusive)')
  endDate?: string;

  @EnumField(['asc', 'desc'], { required: false, description: 'By creation time (default desc)' })
  sortOrder?: SortOrder;
}

/** Adds the query's time bounds on `<alias>.created_at` / `<alias>.updated_at`. */
export function whereTimeRange<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  range: Partial<TimeRangeQuery & DateRangeQuery>,
): SelectQueryBuilder<T> {
  const createdAfter = range.createdAfter ?? range.startDate;
  const createdBefore = range.createdBefore ?? range.endDate;
  if (createdAfter) qb.andWhere(`${alias}.created_at >= :createdAfter`, { createdAfter });
  if (createdBefore) qb.andWhere(`${alias}.created_at <= :createdBefore`, { createdBefore });
  if (range.updatedAfter) qb.andWhere(`${alias}.updated_at >= :updatedAfter`, { updatedAfter: range.updatedAfter });
  if (range.updatedBefore) qb.andWhere(`${alias}.updated_at <= :updatedBefore`, { updatedBefore: range.updatedBefore });
  return qb;
}
