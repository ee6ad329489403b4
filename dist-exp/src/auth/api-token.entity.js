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
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'];
let ApiTokenEntity = class ApiTokenEntity {
    id;
    platformId;
    name;
    permissions;
    /** The HTTP Basic username: opaque, no colon. */
    clientId;
    /** SHA-256 of the 256-bit random secret; the secret itself is never stored. */
    secretHash;
    createdAt;
    updatedAt;
    revokedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], ApiTokenEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], ApiTokenEntity.prototype, "platformId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], ApiTokenEntity.prototype, "name", void 0);
__decorate([
    Column('text', { array: true }),
    __metadata("design:type", Array)
], ApiTokenEntity.prototype, "permissions", void 0);
__decorate([
    Column('text', { name: 'client_id' }),
    __metadata("design:type", String)
], ApiTokenEntity.prototype, "clientId", void 0);
__decorate([
    Column('bytea', { name: 'secret_hash' }),
    __metadata("design:type", Buffer)
], ApiTokenEntity.prototype, "secretHash", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], ApiTokenEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], ApiTokenEntity.prototype, "updatedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'revoked_at', nullable: true }),
    __metadata("design:type", Object)
], ApiTokenEntity.prototype, "revokedAt", void 0);
ApiTokenEntity = __decorate([
    Entity('api_tokens')
], ApiTokenEntity);
export { ApiTokenEntity };
//# sourceMappingURL=api-token.entity.js.map