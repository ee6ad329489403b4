var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, validateSync, } from 'class-validator';
const toBool = ({ value }) => value === 'true' ? true : value === 'false' ? false : value;
const toInt = ({ value }) => typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
const toNumber = ({ value }) => typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
export const ROLES = ['api', 'worker', 'all'];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/**
 * The whole process configuration, read from the environment once at boot (`loadConfig`).
 * Nothing else in the codebase reads `process.env`.
 */
export class AppConfig {
    PORT = 3000;
    /** PostgreSQL URL. Unset: the embedded PGlite engine. */
    DATABASE_URL;
    /**
     * A direct (session) PostgreSQL URL for what needs a session: the LISTEN connections and the
     * migration advisory lock. Set it when DATABASE_URL goes through a transaction-mode pooler
     * (PgBouncer); unset: DATABASE_URL serves both.
     */
    DATABASE_DIRECT_URL;
    /** Where the embedded engine keeps its files; `memory://` for a throwaway database. */
    PGLITE_DATA_DIR = './.data/pglite';
    LOG_LEVEL = 'info';
    ROLE = 'all';
    /** `false` removes every /sandbox route. */
    SANDBOX = true;
    DB_POOL_SIZE = 10;
    /**
     * Hot-path statements (fixed SQL through `TransactionService.query`) are prepared by name once
     * per connection, so PostgreSQL parses and plans them once rather than on every request. Unset:
     * on, unless DATABASE_DIRECT_URL says DATABASE_URL goes through a transaction-mode pooler, which
     * can carry named statements only when it is PgBouncer 1.21+ with `max_prepared_statements` set
     * (say `true` then); an older pooler would hand the next transaction a server connection where
     * the name is unknown. The embedded engine never uses them (one session behind every connection).
     */
    DB_PREPARED_STATEMENTS;
    /** Against PostgreSQL, apply pending migrations at boot (under an advisory lock). Always on for the embedded engine. */
    MIGRATIONS_RUN = false;
    /**
     * The key-encryption key (32 bytes, base64 or hex): encrypts every secret at rest. Required
     * with DATABASE_URL; the embedded engine generates one beside its data dir (see webhook-key.ts).
     */
    WEBHOOK_KEY_ENCRYPTION_KEY;
    /**
     * Deliver webhooks to loopback, private and link-local addresses. Unset: on only on the embedded
     * engine with SANDBOX (a developer's machine); with DATABASE_URL only `true` allows them, whatever
     * SANDBOX says (`POST /sandbox/webhooks/test` answers the target's response: an SSRF otherwise).
     */
    WEBHOOK_ALLOW_PRIVATE_TARGETS;
    /** Webhook deliveries in flight at once per worker process. */
    OUTBOX_CONCURRENCY = 16;
    /** The worker's backstop poll for due events (retries, missed notifications), in ms. */
    OUTBOX_POLL_INTERVAL_MS = 1000;
    /** Verified API credentials kept in memory (per process, LRU); `0` turns the cache off. */
    TOKEN_CACHE_SIZE = 10_000;
    /**
     * How long a verified credential stays cached, in ms. Revocations evict at once on every replica
     * (LISTEN/NOTIFY); this bounds staleness only while that notification connection is down.
     */
    TOKEN_CACHE_TTL_MS = 5_000;
    /**
     * Webhook requests in flight at once per endpoint (per worker process), so one slow receiver
     * cannot take every slot; each endpoint also holds at most this many more claimed ahead.
     */
    OUTBOX_ENDPOINT_CONCURRENCY = 8;
    /**
     * How long a claim on an event lasts, in ms. The worker renews the leases it holds every third
     * of this while it works, so a dead worker's events are taken over within about this long.
     */
    OUTBOX_LEASE_MS = 15_000;
    /**
     * Port of the Prometheus `/metrics` endpoint, on a listener of its own (never the API port, so
     * it is not public by accident). Unset: no metrics endpoint; `0` picks a free port.
     */
    METRICS_PORT;
    /** Address the metrics listener binds (default all interfaces, for the in-cluster scraper). */
    METRICS_HOST = '0.0.0.0';
    /**
     * Requests per credential (API token, or agent) per RATE_LIMIT_WINDOW_MS, counted per replica;
     * `0` turns rate limiting off.
     */
    RATE_LIMIT_REQUESTS = 100;
    /** The same for an agent's own credential (agents call on their own; a tighter budget). */
    RATE_LIMIT_AGENT_REQUESTS = 20;
    /** The rate limit's window, in ms. */
    RATE_LIMIT_WINDOW_MS = 1_000;
    /**
     * Longest a request may take: receiving it (Node's server timeout, answered 408) and handling it
     * (answered 503, retryable; an idempotent retry is safe).
     */
    REQUEST_TIMEOUT_MS = 30_000;
    /** Origins allowed to call cross-origin (comma-separated, or `*`). Unset: CORS off (no CORS headers). */
    CORS_ORIGINS;
    /**
     * On SIGTERM/SIGINT, how long readiness answers 503 while the server keeps serving, so the load
     * balancer stops sending new requests before the listener closes.
     */
    SHUTDOWN_DRAIN_DELAY_MS = 0;
    /**
     * On SIGTERM/SIGINT, the whole time shutdown may take (drain delay included): in-flight requests
     * finish, the worker finishes or releases its deliveries, the pool closes. Keep it below the
     * orchestrator's kill deadline (Kubernetes terminationGracePeriodSeconds).
     */
    SHUTDOWN_GRACE_MS = 25_000;
    /** How long an agent quote can be executed after it is created, in seconds. */
    QUOTE_TTL_SECONDS = 300;
    /**
     * The exchange-rate table quotes price from: units of each currency per 1 USD, `CODE=rate`
     * comma-separated (cross rates go through USD). A currency not listed cannot be quoted against
     * another currency (same-currency quotes are always 1:1).
     */
    FX_RATES = 'EUR=0.92,GBP=0.79,CAD=1.37,MXN=17.2,BRL=5.4,INR=92.5,JPY=150,PHP=58,NGN=1550,USDC=1,BTC=0.000011';
    /** How long a rate read from the table is reused before it is read again (the spec's "about 5 minutes"). */
    FX_RATE_CACHE_SECONDS = 300;
    /** Fixed fee of a cross-currency quote, in minor units of the sending currency (rateDetails.serviceApiFixedFee). */
    QUOTE_FIXED_FEE = 10;
    /** Variable fee rate of a cross-currency quote, a fraction of the sending amount (rateDetails.serviceApiVariableFeeRate). */
    QUOTE_VARIABLE_FEE_RATE = 0.003;
    /** How long an agent's device code can be redeemed, in seconds (default 24 hours). */
    AGENT_DEVICE_CODE_TTL_SECONDS = 24 * 3600;
    get embedded() {
        return !this.DATABASE_URL;
    }
    get allowPrivateWebhookTargets() {
        return this.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? (this.embedded && this.SANDBOX);
    }
}
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(65535),
    __metadata("design:type", Object)
], AppConfig.prototype, "PORT", void 0);
__decorate([
    IsOptional(),
    Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' }),
    __metadata("design:type", String)
], AppConfig.prototype, "DATABASE_URL", void 0);
__decorate([
    IsOptional(),
    Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' }),
    __metadata("design:type", String)
], AppConfig.prototype, "DATABASE_DIRECT_URL", void 0);
__decorate([
    IsString(),
    __metadata("design:type", Object)
], AppConfig.prototype, "PGLITE_DATA_DIR", void 0);
__decorate([
    IsIn(LOG_LEVELS),
    __metadata("design:type", String)
], AppConfig.prototype, "LOG_LEVEL", void 0);
__decorate([
    IsIn(ROLES),
    __metadata("design:type", String)
], AppConfig.prototype, "ROLE", void 0);
__decorate([
    Transform(toBool),
    IsBoolean(),
    __metadata("design:type", Object)
], AppConfig.prototype, "SANDBOX", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(1),
    Max(200),
    __metadata("design:type", Object)
], AppConfig.prototype, "DB_POOL_SIZE", void 0);
__decorate([
    IsOptional(),
    Transform(toBool),
    IsBoolean(),
    __metadata("design:type", Boolean)
], AppConfig.prototype, "DB_PREPARED_STATEMENTS", void 0);
__decorate([
    Transform(toBool),
    IsBoolean(),
    __metadata("design:type", Object)
], AppConfig.prototype, "MIGRATIONS_RUN", void 0);
__decorate([
    IsOptional(),
    Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
        message: 'must be 32 bytes as base64 (44 characters) or hex (64 characters)',
    }),
    __metadata("design:type", String)
], AppConfig.prototype, "WEBHOOK_KEY_ENCRYPTION_KEY", void 0);
__decorate([
    IsOptional(),
    Transform(toBool),
    IsBoolean(),
    __metadata("design:type", Boolean)
], AppConfig.prototype, "WEBHOOK_ALLOW_PRIVATE_TARGETS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(1),
    Max(1000),
    __metadata("design:type", Object)
], AppConfig.prototype, "OUTBOX_CONCURRENCY", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(10),
    Max(1000),
    __metadata("design:type", Object)
], AppConfig.prototype, "OUTBOX_POLL_INTERVAL_MS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(1_000_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "TOKEN_CACHE_SIZE", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(60_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "TOKEN_CACHE_TTL_MS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(1),
    Max(1000),
    __metadata("design:type", Object)
], AppConfig.prototype, "OUTBOX_ENDPOINT_CONCURRENCY", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(1000),
    Max(600_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "OUTBOX_LEASE_MS", void 0);
__decorate([
    IsOptional(),
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(65535),
    __metadata("design:type", Number)
], AppConfig.prototype, "METRICS_PORT", void 0);
__decorate([
    IsString(),
    __metadata("design:type", Object)
], AppConfig.prototype, "METRICS_HOST", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(1_000_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "RATE_LIMIT_REQUESTS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(1_000_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "RATE_LIMIT_AGENT_REQUESTS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(100),
    Max(3_600_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "RATE_LIMIT_WINDOW_MS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(100),
    Max(600_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "REQUEST_TIMEOUT_MS", void 0);
__decorate([
    IsOptional(),
    IsString(),
    __metadata("design:type", String)
], AppConfig.prototype, "CORS_ORIGINS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(600_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "SHUTDOWN_DRAIN_DELAY_MS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(1000),
    Max(600_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "SHUTDOWN_GRACE_MS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(10),
    Max(86_400),
    __metadata("design:type", Object)
], AppConfig.prototype, "QUOTE_TTL_SECONDS", void 0);
__decorate([
    Matches(/^[A-Z]{3,5}=\d+(\.\d+)?(,[A-Z]{3,5}=\d+(\.\d+)?)*$/, {
        message: 'must be CODE=rate pairs separated by commas, e.g. EUR=0.92,GBP=0.79',
    }),
    __metadata("design:type", Object)
], AppConfig.prototype, "FX_RATES", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(3_600),
    __metadata("design:type", Object)
], AppConfig.prototype, "FX_RATE_CACHE_SECONDS", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(0),
    Max(1_000_000),
    __metadata("design:type", Object)
], AppConfig.prototype, "QUOTE_FIXED_FEE", void 0);
__decorate([
    Transform(toNumber),
    IsNumber({}, { message: 'must be a number' }),
    Min(0),
    Max(0.5),
    __metadata("design:type", Object)
], AppConfig.prototype, "QUOTE_VARIABLE_FEE_RATE", void 0);
__decorate([
    Transform(toInt),
    IsInt(),
    Min(60),
    Max(30 * 24 * 3600),
    __metadata("design:type", Object)
], AppConfig.prototype, "AGENT_DEVICE_CODE_TTL_SECONDS", void 0);
/** Variables without a default (absent from `new AppConfig()`'s own keys). */
const OPTIONAL_VARIABLES = [
    'DATABASE_URL',
    'DATABASE_DIRECT_URL',
    'WEBHOOK_KEY_ENCRYPTION_KEY',
    'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    'METRICS_PORT',
    'CORS_ORIGINS',
];
/** Every environment variable the service reads (deploy manifests are checked against it). */
export const CONFIG_VARIABLES = [...Object.keys(new AppConfig()), ...OPTIONAL_VARIABLES];
export class ConfigError extends Error {
    problems;
    constructor(problems) {
        super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
        this.problems = problems;
    }
}
/** Validates the environment into a typed config; throws one error naming every bad variable. */
export function loadConfig(env) {
    const raw = {};
    for (const key of CONFIG_VARIABLES) {
        const value = env[key];
        if (value !== undefined && value !== '')
            raw[key] = value;
    }
    const config = plainToInstance(AppConfig, raw);
    const errors = validateSync(config, { forbidUnknownValues: true });
    if (errors.length > 0) {
        throw new ConfigError(errors.map((e) => `${e.property}=${JSON.stringify(raw[e.property] ?? null)}: ${Object.values(e.constraints ?? {}).join('; ')}`));
    }
    return config;
}
//# sourceMappingURL=app-config.js.map