var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { AGENT_AUTHENTICATOR } from '../auth/auth.decorators.js';
import { CustomersModule } from '../customers/customers.module.js';
import { ExternalAccountsModule } from '../external-accounts/external-accounts.module.js';
import { AgentTokenAuthenticator } from './agent-authenticator.js';
import { AgentMeController } from './agent-me.controller.js';
import { AgentInstallController, AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';
/**
 * Agents: management (platform, HTTP Basic), device-code installation, the agent's own routes, and
 * the AgentAuth scheme (`AGENT_AUTHENTICATOR`, which the global guard uses for `@AgentAuth()` routes).
 */
let AgentsModule = class AgentsModule {
};
AgentsModule = __decorate([
    Module({
        imports: [CustomersModule, ExternalAccountsModule],
        controllers: [AgentsController, AgentInstallController, AgentMeController],
        providers: [
            AgentsService,
            AgentTokenAuthenticator,
            { provide: AGENT_AUTHENTICATOR, useExisting: AgentTokenAuthenticator },
        ],
        exports: [AGENT_AUTHENTICATOR, AgentTokenAuthenticator, AgentsService],
    })
], AgentsModule);
export { AgentsModule };
//# sourceMappingURL=agents.module.js.map