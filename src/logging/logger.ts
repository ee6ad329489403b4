import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { formatId } from '../common/ids.js';
import type { LogLevel } from '../config/app-config.js';
import { traceBindings } from '../tracing/trace-context.js';

/** What a log line needs of the request being served (set by the request-logging middleware). */
export interface ContextRequest {
  id?: string;
  principal?: { platformId: string; agentId?: string };
}

/** The request being served: the request object itself, so nothing is built per request. */
export const requestContext = new AsyncLocalStorage<ContextRequest>();

/** `reqId` and, once authenticated, `platformId` (and an agent's `agentId`; public forms) of a request. */
export function requestBindings(req: ContextRequest | undefined): Record<string, unknown> {
  if (!req) return {};
  if (!req.principal) return { reqId: req.id };
  const bindings: Record<string, unknown> = {
    reqId: req.id,
    platformId: formatId('Platform', req.principal.platformId),
  };
  if (req.principal.agentId !== undefined) bindings.agentId = formatId('Agent', req.principal.agentId);
  return bindings;
}

/** The mixin: every line logged while serving a request carries its bindings (and, tracing on, `trace_id` and `span_id`). */
const currentRequestBindings = () => {
  const bindings = requestBindings(requestContext.getStore());
  const ids = traceBindings();
  return ids ? { ...bindings, ...ids } : bindings;
};

/**
 * Structured JSON logs (pino). Secrets never reach a log line: the Authorization header and
 * anything named like a secret are redacted.
 */
export function createRootLogger(level: LogLevel, destination: 1 | 2 | DestinationStream = 1): Logger {
  return pino(
    {
      level,
      base: undefined,
      mixin: currentRequestBindings,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          '*.clientSecret',
          '*.secret',
          '*.password',
          '*.token',
          '*.threeDSecurePassword',
        ],
        censor: '[redacted]',
      },
    },
    typeof destination === 'number' ? pino.destination({ fd: destination, sync: destination === 2 }) : destination,
  );
}

/**
 * Nest's own start-up narration (one line per module, controller and route: ~115 at start) is
 * logged at `debug`; its warnings and errors keep their level.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
]);

/** Routes Nest's own `Logger` calls into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    if (message && typeof message === 'object') {
      const text = typeof rest[0] === 'string' ? rest[0] : undefined;
      this.logger[level]({ context, ...message }, text);
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
