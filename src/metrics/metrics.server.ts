import { createServer, type Server } from 'node:http';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from './metrics.service.js';

/**
 * `GET /metrics` on a listener of its own (METRICS_PORT on METRICS_HOST), so the metrics are
 * never served on the public API port by accident. Off when METRICS_PORT is unset. Started by
 * `createApp` (server processes only: the CLI's application context never binds it).
 */
@Injectable()
export class MetricsServer implements OnApplicationShutdown {
  private readonly logger = new Logger('metrics');
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** The bound port (for `METRICS_PORT=0`), or null when off. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : null;
  }

  async start(): Promise<void> {
    if (this.config.METRICS_PORT === undefined) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ code: 'NOT_FOUND', reason: 'Only GET /metrics is served on this port' }));
        return;
      }
      this.metrics.scrape().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        (error: unknown) => {
          this.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics scrape failed');
          res
            .writeHead(503, { 'content-type': 'application/json' })
            .end(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', reason: 'Metrics could not be collected' }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.METRICS_PORT, this.config.METRICS_HOST, () => resolve());
    });
    this.server = server;
    this.logger.log({ port: this.port, host: this.config.METRICS_HOST }, 'metrics listening');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
