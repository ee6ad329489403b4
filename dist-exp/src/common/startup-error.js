import { inspect } from 'node:util';
import { ConfigError } from '../config/app-config.js';
import { EmbeddedLockedError } from '../database/embedded-lock.js';
/**
 * What an entry point prints when it cannot start: the real cause, whatever was thrown. Errors
 * that explain themselves (bad configuration, a data dir in use) are their message; any other
 * Error its stack, cause and properties; anything else (a library may throw a plain object) is
 * inspected rather than printed as "[object Object]".
 */
export function describeStartupError(error) {
    if (error instanceof ConfigError || error instanceof EmbeddedLockedError)
        return error.message;
    if (typeof error === 'string')
        return error;
    return inspect(error, { depth: 6, breakLength: 120 });
}
//# sourceMappingURL=startup-error.js.map