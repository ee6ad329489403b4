var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxDispatcher } from '../outbox/outbox.dispatcher.js';
import { Lifecycle } from './lifecycle.js';
/**
 * Kubernetes probes, outside the version prefix and public. Liveness never touches the database
 * (a database outage must not restart every replica); readiness does, and for a process running
 * the worker it also needs the worker's LISTEN connection (PostgreSQL).
 */
let HealthController = class HealthController {
    dataSource;
    lifecycle;
    dispatcher;
    constructor(dataSource, lifecycle, dispatcher) {
        this.dataSource = dataSource;
        this.lifecycle = lifecycle;
        this.dispatcher = dispatcher;
    }
    live() {
        return { status: 'ok' };
    }
    async ready() {
        if (this.lifecycle.draining)
            throw new ApiError('SERVICE_UNAVAILABLE', 'Shutting down', { retryAfterSeconds: 1, retryable: false });
        let pending;
        try {
            pending = await this.dataSource.showMigrations();
        }
        catch {
            throw new ApiError('SERVICE_UNAVAILABLE', 'Database unreachable', { retryAfterSeconds: 1 });
        }
        if (pending)
            throw new ApiError('SERVICE_UNAVAILABLE', 'Database migrations are pending', { retryAfterSeconds: 5 });
        if (this.dispatcher.listening === false)
            throw new ApiError('SERVICE_UNAVAILABLE', 'The worker has lost its LISTEN connection (reconnecting)', {
                retryAfterSeconds: 1,
            });
        return { status: 'ready' };
    }
};
__decorate([
    Public(),
    Get('healthz'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], HealthController.prototype, "live", null);
__decorate([
    Public(),
    Get('readyz'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Promise)
], HealthController.prototype, "ready", null);
HealthController = __decorate([
    ApiExcludeController(),
    Controller(),
    __metadata("design:paramtypes", [DataSource,
        Lifecycle,
        OutboxDispatcher])
], HealthController);
export { HealthController };
//# sourceMappingURL=health.controller.js.map