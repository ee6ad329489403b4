import { loadConfig } from './config/app-config.js';
/**
 * The container's HEALTHCHECK (`node dist/src/healthcheck.js`): exit 0 when GET /healthz on this
 * process's PORT answers 2xx within 2 s, else 1. The image has no curl; this needs nothing but node.
 */
const { PORT } = loadConfig(process.env);
fetch(`http://127.0.0.1:${PORT}/healthz`, { signal: AbortSignal.timeout(2000) }).then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1));
//# sourceMappingURL=healthcheck.js.map