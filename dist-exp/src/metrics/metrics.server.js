var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { createServer } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from './metrics.service.js';
/**
 * `GET /metrics` on a listener of its own (METRICS_PORT on METRICS_HOST), so the metrics are
 * never served on the public API port by accident. Off when METRICS_PORT is unset. Started by
 * `createApp` (server processes only: the CLI's application context never binds it).
 */
let MetricsServer = class MetricsServer {
    config;
    metrics;
    logger = new Logger('metrics');
    server = null;
    constructor(config, metrics) {
        this.config = config;
        this.metrics = metrics;
    }
    /** The bound port (for `METRICS_PORT=0`), or null when off. */
    get port() {
        const address = this.server?.address();
        return address && typeof address === 'object' ? address.port : null;
    }
    async start() {
        if (this.config.METRICS_PORT === undefined)
            return;
        const server = createServer((req, res) => {
            if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
                res
                    .writeHead(404, { 'content-type': 'application/json' })
                    .end(JSON.stringify({ code: 'NOT_FOUND', reason: 'Only GET /metrics is served on this port' }));
                return;
            }
            this.metrics.scrape().then(({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body), (error) => {
                this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics scrape failed');
                res
                    .writeHead(503, { 'content-type': 'application/json' })
                    .end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', reason: 'Metrics could not be collected' }));
            });
        });
        await new Promise((resolve, reject) => {
            server.once('error', reject);
            server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST, () => resolve());
        });
        this.server = server;
        this.logger.log({ port: this.port, host: this.config.METRICS_HOST }, 'metrics listening');
    }
    async onApplicationShutdown() {
        const server = this.server;
        this.server = null;
        if (!server)
            return;
        server.closeAllConnections();
        await new Promise((resolve) => server.close(() => resolve()));
    }
};
MetricsServer = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        MetricsService])
], MetricsServer);
export { MetricsServer };
//# sourceMappingURL=metrics.server.js.map