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
import { ModuleRef, Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error.js';
import { AGENT_AUTH_KEY, AGENT_AUTHENTICATOR, PERMISSION_KEY, PUBLIC_KEY, } from './auth.decorators.js';
import { parseBasic, parseBearer } from './secrets.js';
import { TokensService } from './tokens.service.js';
const unauthorized = (reason) => new ApiError('UNAUTHORIZED', reason, { headers: { 'WWW-Authenticate': 'Basic realm="api"' } });
const unauthorizedAgent = (reason) => new ApiError('UNAUTHORIZED', reason, { headers: { 'WWW-Authenticate': 'Bearer realm="agents"' } });
/**
 * Global guard, deny by default. One guard, two schemes: a route is either platform (HTTP Basic
 * API token, the default), agent (`@AgentAuth()`: the agent's Bearer access token, verified by
 * the `AGENT_AUTHENTICATOR` the agents module provides) or `@Public()`. Each scheme's credentials
 * open only its own routes: a platform token on an agent route, or an agent token on a platform
 * route, is 401 UNAUTHORIZED.
 */
let AuthGuard = class AuthGuard {
    reflector;
    tokens;
    moduleRef;
    agents = null;
    routes = new WeakMap();
    constructor(reflector, tokens, moduleRef) {
        this.reflector = reflector;
        this.tokens = tokens;
        this.moduleRef = moduleRef;
    }
    /** The agents module's authenticator, when that module is part of the app (else agent routes are 401). */
    onApplicationBootstrap() {
        try {
            this.agents = this.moduleRef.get(AGENT_AUTHENTICATOR, { strict: false });
        }
        catch {
            this.agents = null;
        }
    }
    async canActivate(context) {
        const route = this.route(context);
        if (route.isPublic)
            return true;
        const req = context.switchToHttp().getRequest();
        const agentRoute = route.agentAuth;
        if (agentRoute) {
            req.principal = await this.authenticateAgent(req, agentRoute);
            return true;
        }
        const credentials = parseBasic(req.headers.authorization);
        if (!credentials)
            throw unauthorized('Missing or malformed HTTP Basic credentials');
        const principal = await this.tokens.authenticate(credentials.id, credentials.secret);
        if (!principal)
            throw unauthorized('Invalid API credentials');
        req.principal = principal;
        const required = route.permission ?? (req.method === 'GET' || req.method === 'HEAD' ? 'VIEW' : 'MANAGE');
        if (!principal.permissions.includes(required)) {
            throw new ApiError('FORBIDDEN', `This API token lacks the ${required} permission`);
        }
        return true;
    }
    /** Bearer token → agent; then the route's requirement: not paused when it initiates, the permission. */
    async authenticateAgent(req, requirement) {
        const token = parseBearer(req.headers.authorization);
        if (!token)
            throw unauthorizedAgent('Missing or malformed Bearer agent access token');
        const principal = this.agents ? await this.agents.authenticate(token) : null;
        if (!principal)
            throw unauthorizedAgent('Invalid agent access token');
        if (requirement.initiates && principal.isPaused) {
            throw new ApiError('FORBIDDEN', 'This agent is paused: it can read but cannot initiate anything until resumed');
        }
        if (requirement.permission !== undefined && !principal.permissions.includes(requirement.permission)) {
            throw new ApiError('FORBIDDEN', `This agent's policy lacks the ${requirement.permission} permission`, {
                details: { permission: requirement.permission },
            });
        }
        return principal;
    }
    /** The route's auth metadata, read once per handler and controller (metadata is fixed at boot). */
    route(context) {
        const handler = context.getHandler();
        const controller = context.getClass();
        let byHandler = this.routes.get(controller);
        if (!byHandler)
            this.routes.set(controller, (byHandler = new WeakMap()));
        let route = byHandler.get(handler);
        if (!route) {
            const targets = [handler, controller];
            route = {
                isPublic: this.reflector.getAllAndOverride(PUBLIC_KEY, targets) === true,
                agentAuth: this.reflector.getAllAndOverride(AGENT_AUTH_KEY, targets),
                permission: this.reflector.getAllAndOverride(PERMISSION_KEY, targets),
            };
            byHandler.set(handler, route);
        }
        return route;
    }
};
AuthGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [Reflector,
        TokensService,
        ModuleRef])
], AuthGuard);
export { AuthGuard };
//# sourceMappingURL=auth.guard.js.map