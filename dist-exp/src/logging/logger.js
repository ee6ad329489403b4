import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { formatId } from '../common/ids.js';
/** The request being served: the request object itself, so nothing is built per request. */
export const requestContext = new AsyncLocalStorage();
/** `reqId` and, once authenticated, `platformId` (and an agent's `agentId`; public forms) of a request. */
export function requestBindings(req) {
    if (!req)
        return {};
    if (!req.principal)
        return { reqId: req.id };
    const bindings = {
        reqId: req.id,
        platformId: formatId('Platform', req.principal.platformId),
    };
    if (req.principal.agentId !== undefined)
        bindings.agentId = formatId('Agent', req.principal.agentId);
    return bindings;
}
/** The mixin: every line logged while serving a request carries its bindings. */
const currentRequestBindings = () => requestBindings(requestContext.getStore());
/**
 * Structured JSON logs (pino). Secrets never reach a log line: the Authorization header and
 * anything named like a secret are redacted.
 */
export function createRootLogger(level, destination = 1) {
    return pino({
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
    }, typeof destination === 'number' ? pino.destination({ fd: destination, sync: destination === 2 }) : destination);
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
export class PinoNestLogger {
    logger;
    constructor(logger) {
        this.logger = logger;
    }
    log(message, ...rest) {
        const context = rest[rest.length - 1];
        this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
    }
    error(message, ...rest) {
        this.write('error', message, rest);
    }
    warn(message, ...rest) {
        this.write('warn', message, rest);
    }
    debug(message, ...rest) {
        this.write('debug', message, rest);
    }
    verbose(message, ...rest) {
        this.write('trace', message, rest);
    }
    fatal(message, ...rest) {
        this.write('fatal', message, rest);
    }
    write(level, message, rest) {
        const context = typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
        if (message && typeof message === 'object') {
            const text = typeof rest[0] === 'string' ? rest[0] : undefined;
            this.logger[level]({ context, ...message }, text);
        }
        else {
            this.logger[level]({ context }, String(message));
        }
    }
}
//# sourceMappingURL=logger.js.map