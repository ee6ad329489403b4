var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { DateTimeQuery, PageQuery } from './pagination.js';
import { EnumField } from './validation.js';
/** `createdAfter` / `createdBefore` (inclusive ISO 8601 bounds) on a paginated list. */
export class CreatedRangeQuery extends PageQuery {
    createdAfter;
    createdBefore;
}
__decorate([
    DateTimeQuery('Created at or after this timestamp'),
    __metadata("design:type", String)
], CreatedRangeQuery.prototype, "createdAfter", void 0);
__decorate([
    DateTimeQuery('Created at or before this timestamp'),
    __metadata("design:type", String)
], CreatedRangeQuery.prototype, "createdBefore", void 0);
/** Created and updated bounds (inclusive) on a paginated list. */
export class TimeRangeQuery extends CreatedRangeQuery {
    updatedAfter;
    updatedBefore;
}
__decorate([
    DateTimeQuery('Updated at or after this timestamp'),
    __metadata("design:type", String)
], TimeRangeQuery.prototype, "updatedAfter", void 0);
__decorate([
    DateTimeQuery('Updated at or before this timestamp'),
    __metadata("design:type", String)
], TimeRangeQuery.prototype, "updatedBefore", void 0);
/** The reference's `startDate` / `endDate` (inclusive bounds on creation) and `sortOrder` on a paginated list. */
export class DateRangeQuery extends PageQuery {
    startDate;
    endDate;
    sortOrder;
}
__decorate([
    DateTimeQuery('Created at or after this timestamp (inclusive)'),
    __metadata("design:type", String)
], DateRangeQuery.prototype, "startDate", void 0);
__decorate([
    DateTimeQuery('Created at or before this timestamp (inclusive)'),
    __metadata("design:type", String)
], DateRangeQuery.prototype, "endDate", void 0);
__decorate([
    EnumField(['asc', 'desc'], { required: false, description: 'By creation time (default desc)' }),
    __metadata("design:type", String)
], DateRangeQuery.prototype, "sortOrder", void 0);
/** Adds the query's time bounds on `<alias>.created_at` / `<alias>.updated_at`. */
export function whereTimeRange(qb, alias, range) {
    const createdAfter = range.createdAfter ?? range.startDate;
    const createdBefore = range.createdBefore ?? range.endDate;
    if (createdAfter)
        qb.andWhere(`${alias}.created_at >= :createdAfter`, { createdAfter });
    if (createdBefore)
        qb.andWhere(`${alias}.created_at <= :createdBefore`, { createdBefore });
    if (range.updatedAfter)
        qb.andWhere(`${alias}.updated_at >= :updatedAfter`, { updatedAfter: range.updatedAfter });
    if (range.updatedBefore)
        qb.andWhere(`${alias}.updated_at <= :updatedBefore`, { updatedBefore: range.updatedBefore });
    return qb;
}
//# sourceMappingURL=time-range.js.map