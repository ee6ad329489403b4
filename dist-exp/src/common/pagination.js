var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { isUuid } from './ids.js';
import { IntField, presence, StringField } from './validation.js';
import { applyDecorators } from '@nestjs/common';
/** `limit` and `cursor`, shared by every list endpoint. */
export class PageQuery {
    limit;
    cursor;
}
__decorate([
    IntField({ min: 1, max: 100, required: false, fromQuery: true, description: 'Page size (default 20)' }),
    __metadata("design:type", Number)
], PageQuery.prototype, "limit", void 0);
__decorate([
    StringField({ required: false, maxLength: 512, description: 'Opaque cursor from the previous page' }),
    __metadata("design:type", String)
], PageQuery.prototype, "cursor", void 0);
/** An ISO 8601 timestamp query filter. */
export function DateTimeQuery(description) {
    return applyDecorators(...presence(false, false), IsISO8601({ strict: true }, { context: { format: 'date-time' }, message: '$property must be an ISO 8601 date-time' }), ApiPropertyOptional({ type: String, format: 'date-time', description }));
}
export function PageOf(item, name) {
    class PageResponse {
        data;
        hasMore;
        nextCursor;
        totalCount;
    }
    __decorate([
        ApiProperty({ type: [item] }),
        __metadata("design:type", Array)
    ], PageResponse.prototype, "data", void 0);
    __decorate([
        ApiProperty(),
        __metadata("design:type", Boolean)
    ], PageResponse.prototype, "hasMore", void 0);
    __decorate([
        ApiPropertyOptional({ description: 'Present only when hasMore is true' }),
        __metadata("design:type", String)
    ], PageResponse.prototype, "nextCursor", void 0);
    __decorate([
        ApiProperty(),
        __metadata("design:type", Number)
    ], PageResponse.prototype, "totalCount", void 0);
    Object.defineProperty(PageResponse, 'name', { value: name });
    return PageResponse;
}
function decodeCursor(cursor) {
    try {
        const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
        // Only a well-formed uuid may reach the query (anything else would fail in PostgreSQL: 500).
        if (typeof parsed?.k === 'string' && isUuid(parsed.k))
            return parsed.k.toLowerCase();
    }
    catch {
        // fall through
    }
    throw invalidInput([fieldError('cursor', 'cursor is not a cursor this API returned')]);
}
const encodeCursor = (key) => Buffer.from(JSON.stringify({ k: key })).toString('base64url');
/**
 * Keyset pagination on the time-ordered uuid primary key, newest first (or oldest first with
 * `sortOrder: 'asc'`): rows inserted while a client pages land before its cursor (newest first),
 * never shifting a page.
 */
export async function paginate(qb, query, render) {
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
    const page = { data: pageRows.map(render), hasMore, totalCount };
    if (hasMore)
        page.nextCursor = encodeCursor(String(pageRows[pageRows.length - 1].id));
    return page;
}
//# sourceMappingURL=pagination.js.map