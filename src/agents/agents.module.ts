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
@Module({
  imports: [CustomersModule, ExternalAccountsModule],
  controllers: [AgentsController, AgentInstallController, AgentMeController],
  providers: [
    AgentsService,
    AgentTokenAuthenticator,
    { provide: AGENT_AUTHENTICATOR, useExisting: AgentTokenAuthenticator },
  ],
  exports: [AGENT_AUTHENTICATOR, AgentTokenAuthenticator, AgentsService],
})
export class AgentsModule {}
