var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { TokensService } from '../auth/tokens.service.js';
import { formatId, newUuid } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { PlatformEntity } from './platform.entity.js';
/** Operator-level: creates tenants (from the CLI, the embedded quick start and test factories). */
let PlatformsService = class PlatformsService {
    tx;
    tokens;
    config;
    clock;
    constructor(tx, tokens, config, clock) {
        this.tx = tx;
        this.tokens = tokens;
        this.config = config;
        this.clock = clock;
    }
    async create(name) {
        return this.tx.run(async (m) => {
            const now = this.clock.now();
            const row = m.create(PlatformEntity, { id: newUuid(), name, createdAt: now, updatedAt: now });
            await m.insert(PlatformEntity, row);
            await this.config.createDefaults(m, row.id);
            const token = await this.tokens.create(m, row.id, {
                name: `${name} admin`,
                permissions: ['MANAGE', 'TRANSACT', 'VIEW'],
            });
            return {
                platform: { id: formatId('Platform', row.id), name: row.name, createdAt: now.toISOString() },
                token,
            };
        });
    }
    count() {
        return this.tx.manager.count(PlatformEntity);
    }
};
PlatformsService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService,
        TokensService,
        PlatformConfigService,
        Clock])
], PlatformsService);
export { PlatformsService };
//# sourceMappingURL=platforms.service.js.map