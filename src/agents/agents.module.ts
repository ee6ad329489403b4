import { Module } from '@nestjs/common';
import { AGENT_AUTHENTICATOR } from '../auth/auth.decorators.js';
import { AgentTokenAuthenticator } from './agent-authenticator.js';

/**
 * Agents: management (platform, HTTP Basic), device-code installation, and the AgentAuth scheme
 * (`AGENT_AUTHENTICATOR`, which the global guard uses for `@AgentAuth()` routes).
 */
@Module({
  providers: [AgentTokenAuthenticator, { provide: AGENT_AUTHENTICATOR, useExisting: AgentTokenAuthenticator }],
  exports: [AGENT_AUTHENTICATOR, AgentTokenAuthenticator],
})
export class AgentsModule {}
