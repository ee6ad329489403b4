var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Column, Entity, PrimaryColumn } from 'typeorm';
let IdempotencyKeyEntity = class IdempotencyKeyEntity {
    platformId;
    key;
    /** SHA-256 of method, path and canonical body. */
    fingerprint;
    responseStatus;
    responseBody;
    createdAt;
};
__decorate([
    PrimaryColumn('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "platformId", void 0);
__decorate([
    PrimaryColumn('text'),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "key", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "fingerprint", void 0);
__decorate([
    Column('int', { name: 'response_status' }),
    __metadata("design:type", Number)
], IdempotencyKeyEntity.prototype, "responseStatus", void 0);
__decorate([
    Column('jsonb', { name: 'response_body', nullable: true }),
    __metadata("design:type", Object)
], IdempotencyKeyEntity.prototype, "responseBody", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], IdempotencyKeyEntity.prototype, "createdAt", void 0);
IdempotencyKeyEntity = __decorate([
    Entity('idempotency_keys')
], IdempotencyKeyEntity);
export { IdempotencyKeyEntity };
//# sourceMappingURL=idempotency-key.entity.js.map