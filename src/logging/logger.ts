import type { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import type { LogLevel } from '../config/app-config.js';

/**
 * Structured JSON logs (pino). Secrets never reach a log line: the Authorization header and
 * anything named like a secret are redacted.
 */
export function createRootLogger(level: LogLevel, destination: 1 | 2 = 1): Logger {
  return pino(
    {
      level,
      base: undefined,
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
    pino.destination({ fd: destination, sync: destination === 2 }),
  );
}

/** Routes Nest's own `Logger` calls into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
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
