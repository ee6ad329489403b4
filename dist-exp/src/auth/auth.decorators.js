import { applyDecorators, createParamDecorator, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
export const PUBLIC_KEY = 'auth:public';
export const PERMISSION_KEY = 'auth:permission';
export const AGENT_AUTH_KEY = 'auth:agent';
/** Marks a public operation in the generated document (src/openapi/openapi.ts makes it `security: []`). */
export const PUBLIC_OPERATION = 'x-public';
/**
 * Opens a route to unauthenticated callers. Everything else is denied by default. The OpenAPI
 * document says so with `security: []` on the operation (the reference's way), whatever the
 * controller's own security.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_KEY, true), ApiExtension(PUBLIC_OPERATION, true));
/**
 * The permission a platform token needs. Without it: VIEW for reads, MANAGE for writes
 * (the strictest, so a forgotten decorator never opens a write).
 */
export const RequirePermission = (permission) => SetMetadata(PERMISSION_KEY, permission);
/**
 * Marks a route as called by an agent with its own Bearer credential (the AgentAuth scheme).
 * Platform credentials never open such a route, and an agent token opens no other route (401).
 * The agents module serves the scheme (`AGENT_AUTHENTICATOR`).
 */
export const AgentAuth = (requirement = {}) => SetMetadata(AGENT_AUTH_KEY, requirement);
export const AGENT_AUTHENTICATOR = Symbol('AGENT_AUTHENTICATOR');
export const CurrentPlatform = createParamDecorator((_data, ctx) => {
    const principal = ctx.switchToHttp().getRequest().principal;
    if (principal?.kind !== 'platform')
        throw new Error('CurrentPlatform used on a route without platform auth');
    return principal;
});
/** The calling agent, on `@AgentAuth()` routes. */
export const CurrentAgent = createParamDecorator((_data, ctx) => {
    const principal = ctx.switchToHttp().getRequest().principal;
    if (principal?.kind !== 'agent')
        throw new Error('CurrentAgent used on a route without @AgentAuth()');
    return principal;
});
//# sourceMappingURL=auth.decorators.js.map