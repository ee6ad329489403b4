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
/**
 * An agent: acts for one customer of one platform under its policy. `policy` is stored as
 * rendered (defaults applied, see agent-policy.ts). The usage counters are the policy's running
 * totals; they reset lazily by UTC date and month (`currentUsage`), and only a transaction that
 * holds the row FOR UPDATE changes them. Deleting is soft (`deletedAt`): its actions stay.
 */
let AgentEntity = class AgentEntity {
    id;
    platformId;
    customerId;
    name;
    isPaused;
    /** A device code of it has been redeemed. */
    isConnected;
    policy;
    dailyTransactionCount;
    /** Minor units of the policy's spendingLimits.currency (bigint, read as a decimal string). */
    dailySpend;
    monthlySpend;
    /** `YYYY-MM-DD`: the UTC date at which the daily counters next reset. */
    dailyResetDate;
    /** `YYYY-MM`: the UTC month at which the monthly counter next resets. */
    monthlyResetMonth;
    createdAt;
    updatedAt;
    deletedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], AgentEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "customerId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], AgentEntity.prototype, "name", void 0);
__decorate([
    Column('boolean', { name: 'is_paused' }),
    __metadata("design:type", Boolean)
], AgentEntity.prototype, "isPaused", void 0);
__decorate([
    Column('boolean', { name: 'is_connected' }),
    __metadata("design:type", Boolean)
], AgentEntity.prototype, "isConnected", void 0);
__decorate([
    Column('jsonb'),
    __metadata("design:type", Object)
], AgentEntity.prototype, "policy", void 0);
__decorate([
    Column('integer', { name: 'daily_transaction_count' }),
    __metadata("design:type", Number)
], AgentEntity.prototype, "dailyTransactionCount", void 0);
__decorate([
    Column('bigint', { name: 'daily_spend' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "dailySpend", void 0);
__decorate([
    Column('bigint', { name: 'monthly_spend' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "monthlySpend", void 0);
__decorate([
    Column('text', { name: 'daily_reset_date' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "dailyResetDate", void 0);
__decorate([
    Column('text', { name: 'monthly_reset_month' }),
    __metadata("design:type", String)
], AgentEntity.prototype, "monthlyResetMonth", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], AgentEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], AgentEntity.prototype, "updatedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'deleted_at', nullable: true }),
    __metadata("design:type", Object)
], AgentEntity.prototype, "deletedAt", void 0);
AgentEntity = __decorate([
    Entity('agents')
], AgentEntity);
export { AgentEntity };
/** A one-time installation code; only its SHA-256 hash is stored. */
let AgentDeviceCodeEntity = class AgentDeviceCodeEntity {
    id;
    platformId;
    agentId;
    codeHash;
    expiresAt;
    redeemedAt;
    /** A newer code was issued for the agent before this one was redeemed. */
    supersededAt;
    createdAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], AgentDeviceCodeEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], AgentDeviceCodeEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'agent_id' }),
    __metadata("design:type", String)
], AgentDeviceCodeEntity.prototype, "agentId", void 0);
__decorate([
    Column('bytea', { name: 'code_hash' }),
    __metadata("design:type", Buffer)
], AgentDeviceCodeEntity.prototype, "codeHash", void 0);
__decorate([
    Column('timestamptz', { name: 'expires_at' }),
    __metadata("design:type", Date)
], AgentDeviceCodeEntity.prototype, "expiresAt", void 0);
__decorate([
    Column('timestamptz', { name: 'redeemed_at', nullable: true }),
    __metadata("design:type", Object)
], AgentDeviceCodeEntity.prototype, "redeemedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'superseded_at', nullable: true }),
    __metadata("design:type", Object)
], AgentDeviceCodeEntity.prototype, "supersededAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], AgentDeviceCodeEntity.prototype, "createdAt", void 0);
AgentDeviceCodeEntity = __decorate([
    Entity('agent_device_codes')
], AgentDeviceCodeEntity);
export { AgentDeviceCodeEntity };
/** An agent's Bearer credential (`gat_` + 40 hex); only its SHA-256 hash is stored. */
let AgentAccessTokenEntity = class AgentAccessTokenEntity {
    id;
    platformId;
    agentId;
    /** The device code whose redemption issued it. */
    deviceCodeId;
    tokenHash;
    createdAt;
    /** Superseded by a newer token, or the agent was deleted. */
    revokedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], AgentAccessTokenEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], AgentAccessTokenEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'agent_id' }),
    __metadata("design:type", String)
], AgentAccessTokenEntity.prototype, "agentId", void 0);
__decorate([
    Column('uuid', { name: 'device_code_id' }),
    __metadata("design:type", String)
], AgentAccessTokenEntity.prototype, "deviceCodeId", void 0);
__decorate([
    Column('bytea', { name: 'token_hash' }),
    __metadata("design:type", Buffer)
], AgentAccessTokenEntity.prototype, "tokenHash", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], AgentAccessTokenEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'revoked_at', nullable: true }),
    __metadata("design:type", Object)
], AgentAccessTokenEntity.prototype, "revokedAt", void 0);
AgentAccessTokenEntity = __decorate([
    Entity('agent_access_tokens')
], AgentAccessTokenEntity);
export { AgentAccessTokenEntity };
//# sourceMappingURL=agent.entity.js.map