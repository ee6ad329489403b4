/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_SDK_DISABLED=true` keeps it off). A preload: it must
 * run before the instrumented modules (http, express, pg) load, so the process starts as
 * `node --import ./dist/src/tracing.js dist/src/main.js` (`npm start` and the image do). While off
 * it only reads the environment: the SDK is imported only when it is on.
 *
 * On: the NodeSDK with the HTTP, Express and `pg` instrumentations (ESM modules are patched through
 * the import-in-the-middle loader hook registered here), the OTLP/HTTP exporter (the standard
 * OTEL_EXPORTER_OTLP_* variables: protocol, headers, timeout), `service.name` (OTEL_SERVICE_NAME,
 * default `payments-platform-api`) and `service.version` (package.json's) as resource attributes.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

const env = process.env;
const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;

if (endpoint && env.OTEL_SDK_DISABLED !== 'true') {
  // Traces only: the SDK's metrics and logs exporters stay off unless asked for (metrics are Prometheus's).
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { markTracingEnabled } = await import('./tracing/trace-context.js');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'payments-platform-api',
      'service.version': pkg.version,
    }),
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  markTracingEnabled();
  // Spans still buffered are sent before the process exits (main.ts exits after its shutdown).
  const flush = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', flush);
  process.once('SIGINT', flush);
}
