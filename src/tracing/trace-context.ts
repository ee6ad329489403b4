import { context, propagation, ROOT_CONTEXT, trace, SpanKind, type Span } from '@opentelemetry/api';

/** Set by the tracing preload (src/tracing.ts) once the SDK runs; nothing here costs anything while unset. */
const TRACING = Symbol.for('payments-platform-api.tracing');

export function tracingEnabled(): boolean {
  return (globalThis as Record<symbol, unknown>)[TRACING] === true;
}

export function markTracingEnabled(): void {
  (globalThis as Record<symbol, unknown>)[TRACING] = true;
}

/** The active span's W3C `traceparent` (stored with each outbox event a request writes), or null. */
export function currentTraceparent(): string | null {
  if (!tracingEnabled()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** `trace_id` and `span_id` of the active span, for log lines (empty while tracing is off). */
export function traceBindings(): Record<string, string> | undefined {
  if (!tracingEnabled()) return undefined;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Runs one webhook delivery under its span: a child of the request that wrote the event (its
 * stored `traceparent`, so the delivery is in the request's trace) and linked to it, with the
 * delivery's own `traceparent` added to `headers`. While tracing is off, a stored traceparent is
 * passed on as it is and nothing else happens.
 */
export async function inDeliverySpan<T>(
  traceparent: string | null,
  attributes: Record<string, string | number>,
  headers: Record<string, string>,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!tracingEnabled()) {
    if (traceparent) headers.traceparent = traceparent;
    return work(undefined);
  }
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  const parentSpan = trace.getSpanContext(parent);
  const tracer = trace.getTracer('payments-platform-api');
  return tracer.startActiveSpan(
    'webhook delivery',
    { kind: SpanKind.PRODUCER, attributes, links: parentSpan ? [{ context: parentSpan }] : [] },
    parent,
    async (span) => {
      propagation.inject(context.active(), headers);
      try {
        return await work(span);
      } finally {
        span.end();
      }
    },
  );
}
