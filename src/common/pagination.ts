import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { isUuid } from './ids.js';
import { IntField, presence, StringField } from './validation.js';
import { applyDecorators } from '@nestjs/common';

/** `limit` and `cursor`, shared by every list endpoint. */
export class PageQuery {
  @IntField({ min: 1, max: 100, required: false, fromQuery: true, description: 'Page size (default 20)' })
  limit?: number;

  @StringField({ required: false, maxLength: 512, description: 'Opaque cursor from the previous page' })
  cursor?: string;
}

/** An ISO 8601 timestamp query filter. */
export function DateTimeQuery(description: string): PropertyDecorator {
  return applyDecorators(
    ...presence(false, false),
    IsISO8601(
      { strict: true },
      { context: { format: 'date-time' }, message: '$property must be an ISO 8601 date-time' },
    ),
    ApiPropertyOptional({ type: String, format: 'date-time', description }),
  );
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

export function PageOf<T>(item: new () => T, name: string) {
  class PageResponse {
    @ApiProperty({ type: [item] })
    data: T[];
    @ApiProperty()
    hasMore: boolean;
    @ApiPropertyOptional({ description: 'Present only when hasMore is true' })
    nextCursor?: string;
    @ApiProperty()
    totalCount: number;
  }
  Object.defineProperty(PageResponse, 'name', { value: name });
  return PageResponse;
}

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown } | null;
    // Only a well-formed uuid may reach the query (anything else would fail in PostgreSQL: 500).
    if (typeof parsed?.k === 'string' && isUuid(parsed.k)) return parsed.k.toLowerCase();
  } catch {
    // fall through
  }
  throw invalidInput([fieldError('cursor', 'cursor is not a cursor this API returned')]);
}

const encodeCursor = (key: string) => Buffer.from(JSON.stringify({ k: key })).toString('base64url');

/** The reference's `sortOrder` list filter (by creation time). */
export type SortOrder = 'asc' | 'desc';

/**
 * Keyset pagination on the time-ordered uuid primary key, newest first (or oldest first with
 * `sortOrder: 'asc'`): rows inserted while a client pages land before its cursor (newest first),
 * never shifting a page.
 */
export async function paginate<E extends ObjectLiteral, T>(
  qb: SelectQueryBuilder<E>,
  query: PageQuery & { sortOrder?: SortOrder },
  render: (row: E) => T,
): Promise<Page<T>> {
  const alias = qb.alias;
  const limit = query.limit ?? 20;
  const ascending = query.sortOrder === 'asc';
  const totalCount = await qb.clone().getCount();
  if (query.cursor) {
    const key = decodeCursor(query.cursor);
    qb.andWhere(`${alias}.id ${ascending ? '>' : '<'} :cursorKey`, { cursorKey: key });
  }
  const rows = await qb
    .orderBy(`${alias}.id`, ascending ? 'ASC' : 'DESC')
    .take(limit + 1)
    .getMany();
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const page: Page<T> = { data: pageRows.map(render), hasMore, totalCount };
  if (hasMore) page.nextCursor = encodeCursor(String((pageRows[pageRows.length - 1] as unknown as { id: unknown }).id));
  return page;
}
