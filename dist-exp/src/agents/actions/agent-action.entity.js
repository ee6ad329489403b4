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
export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'];
export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE'];
/** Something an agent submitted: executing one quote (at most one action per quote). */
let AgentActionEntity = class AgentActionEntity {
    id;
    platformId;
    agentId;
    customerId;
    type;
    quoteId;
    status;
    rejectionReason;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'agent_id' }),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "agentId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id' }),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "customerId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "type", void 0);
__decorate([
    Column('uuid', { name: 'quote_id' }),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "quoteId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], AgentActionEntity.prototype, "status", void 0);
__decorate([
    Column('text', { name: 'rejection_reason', nullable: true }),
    __metadata("design:type", Object)
], AgentActionEntity.prototype, "rejectionReason", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], AgentActionEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], AgentActionEntity.prototype, "updatedAt", void 0);
AgentActionEntity = __decorate([
    Entity('agent_actions')
], AgentActionEntity);
export { AgentActionEntity };
//# sourceMappingURL=agent-action.entity.js.map