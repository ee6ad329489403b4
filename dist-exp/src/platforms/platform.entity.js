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
/** A tenant: the API client that owns every other resource. */
let PlatformEntity = class PlatformEntity {
    id;
    name;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], PlatformEntity.prototype, "id", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], PlatformEntity.prototype, "name", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], PlatformEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], PlatformEntity.prototype, "updatedAt", void 0);
PlatformEntity = __decorate([
    Entity('platforms')
], PlatformEntity);
export { PlatformEntity };
//# sourceMappingURL=platform.entity.js.map