var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppModule_1;
import { Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AgentActionsModule } from './agents/actions/agent-actions.module.js';
import { AgentsModule } from './agents/agents.module.js';
import { AuthModule } from './auth/auth.module.js';
import { CardTransactionsModule } from './cards/card-transactions.module.js';
import { CardsSandboxModule } from './cards/cards-sandbox.module.js';
import { CardsModule } from './cards/cards.module.js';
import { ConfigModule } from './config/config.module.js';
import { CustomersSandboxModule } from './customers/customers-sandbox.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { ExternalAccountsSandboxModule } from './external-accounts/external-accounts-sandbox.module.js';
import { ExternalAccountsModule } from './external-accounts/external-accounts.module.js';
import { PlatformConfigModule } from './platform-config/platform-config.module.js';
import { OutboxSandboxModule } from './outbox/outbox-sandbox.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { PlatformsModule } from './platforms/platforms.module.js';
let AppModule = AppModule_1 = class AppModule {
    /** `databaseUrl`: DATABASE_URL, or the embedded engine's loopback URL. */
    static forRoot(config, databaseUrl, options = {}) {
        return {
            module: AppModule_1,
            imports: [
                ConfigModule.forRoot(config, options),
                EventEmitterModule.forRoot(),
                DatabaseModule.forRoot(databaseUrl, config.DB_POOL_SIZE),
                MetricsModule,
                HealthModule,
                IdempotencyModule,
                AuthModule,
                PlatformsModule,
                PlatformConfigModule,
                // Import order does not decide route order: createApp sorts the routes (src/route-order.ts).
                CustomersModule,
                ExternalAccountsModule,
                OutboxModule,
                CardsModule,
                CardTransactionsModule,
                AgentsModule,
                AgentActionsModule,
                // Each area's sandbox-only routes (its <area>-sandbox.module.ts): with SANDBOX=false they do not exist (404).
                ...(config.SANDBOX
                    ? [CustomersSandboxModule, ExternalAccountsSandboxModule, OutboxSandboxModule, CardsSandboxModule]
                    : []),
            ],
        };
    }
};
AppModule = AppModule_1 = __decorate([
    Module({})
], AppModule);
export { AppModule };
//# sourceMappingURL=app.module.js.map