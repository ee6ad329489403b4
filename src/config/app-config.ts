import { plainToInstance, Transform } from 'class-transformer';
import { parseKeyList } from '../secrets/key-list.js';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  Max,
  Min,
  validateSync,
} from 'class-validator';

const toBool = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The whole process configuration, read from the environment once at boot (`loadConfig`).
 * Nothing else in the codebase reads `process.env`.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** PostgreSQL URL. Unset: the embedded PGlite engine. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /**
   * A direct (session) PostgreSQL URL for what needs a session: the LISTEN connections and the
   * migration advisory lock. Set it when DATABASE_URL goes through a transaction-mode pooler
   * (PgBouncer); unset: DATABASE_URL serves both.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_DIRECT_URL?: string;

  /** Where the embedded engine keeps its files; `memory://` for a throwaway database. */
  @IsString()
  PGLITE_DATA_DIR = './.data/pglite';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @IsIn(ROLES)
  ROLE: Role = 'all';

  /** `false` removes every /sandbox route. */
  @Transform(toBool)
  @IsBoolean()
  SANDBOX = true;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /**
   * Hot-path statements (fixed SQL through `TransactionService.query`) are prepared by name once
   * per connection, so PostgreSQL parses and plans them once rather than on every request. Unset:
   * on, unless DATABASE_DIRECT_URL says DATABASE_URL goes through a transaction-mode pooler, which
   * can carry named statements only when it is PgBouncer 1.21+ with `max_prepared_statements` set
   * (say `true` then); an older pooler would hand the next transaction a server connection where
   * the name is unknown. The embedded engine never uses them (one session behind every connection).
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DB_PREPARED_STATEMENTS?: boolean;

  /** Against PostgreSQL, apply pending migrations at boot (under an advisory lock). Always on for the embedded engine. */
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN = false;

  /**
   * The key-encryption key (32 bytes, base64 or hex): encrypts every secret at rest. Required
   * with DATABASE_URL; the embedded engine generates one beside its data dir (see src/secrets/key-encryption-key.ts).
   */
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'must be 32 bytes as base64 (44 characters) or hex (64 characters)',
  })
  WEBHOOK_KEY_ENCRYPTION_KEY?: string;

  /**
   * The key-encryption key ring: `id1:key1,id2:key2` (each 32 bytes, base64 or hex; ids 1 to 64
   * letters, digits, `_` or `-`). The first key seals; every key opens. Replaces
   * WEBHOOK_KEY_ENCRYPTION_KEY (still read as a one-key ring when this is unset). See docs/key-rotation.md.
   */
  @IsOptional()
  @ValidateBy({
    name: 'keyList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && keyListProblem(value) === null,
      defaultMessage: (args) => keyListProblem(String(args?.value)) ?? 'invalid',
    },
  })
  KEY_ENCRYPTION_KEYS?: string;

  /**
   * Deliver webhooks to loopback, private and link-local addresses. Unset: on only on the embedded
   * engine with SANDBOX (a developer's machine); with DATABASE_URL only `true` allows them, whatever
   * SANDBOX says (`POST /sandbox/webhooks/test` answers the target's response: an SSRF otherwise).
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;

  /** Webhook deliveries in flight at once per worker process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_CONCURRENCY = 16;

  /** The worker's backstop poll for due events (retries, missed notifications), in ms. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(1000)
  OUTBOX_POLL_INTERVAL_MS = 1000;

  /** Verified API credentials kept in memory (per process, LRU); `0` turns the cache off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  TOKEN_CACHE_SIZE = 10_000;

  /**
   * How long a verified credential stays cached, in ms. Revocations evict at once on every replica
   * (LISTEN/NOTIFY); this bounds staleness only while that notification connection is down.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  TOKEN_CACHE_TTL_MS = 5_000;

  /**
   * Webhook requests in flight at once per endpoint (per worker process), so one slow receiver
   * cannot take every slot; each endpoint also holds at most this many more claimed ahead.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_ENDPOINT_CONCURRENCY = 8;

  /**
   * How long a claim on an event lasts, in ms. The worker renews the leases it holds every third
   * of this while it works, so a dead worker's events are taken over within about this long.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  OUTBOX_LEASE_MS = 15_000;

  /**
   * Port of the Prometheus `/metrics` endpoint, on a listener of its own (never the API port, so
   * it is not public by accident). Unset: no metrics endpoint; `0` picks a free port.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** Address the metrics listener binds (default all interfaces, for the in-cluster scraper). */
  @IsString()
  METRICS_HOST = '0.0.0.0';

  /**
   * Requests per credential (API token, or agent) per RATE_LIMIT_WINDOW_MS, counted per replica;
   * `0` turns rate limiting off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_REQUESTS = 100;

  /** The same for an agent's own credential (agents call on their own; a tighter budget). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_AGENT_REQUESTS = 20;

  /** The rate limit's window, in ms. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  RATE_LIMIT_WINDOW_MS = 1_000;

  /**
   * Longest a request may take: receiving it (Node's server timeout, answered 408) and handling it
   * (answered 503, retryable; an idempotent retry is safe).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  REQUEST_TIMEOUT_MS = 30_000;

  /** Origins allowed to call cross-origin (comma-separated, or `*`). Unset: CORS off (no CORS headers). */
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  /**
   * On SIGTERM/SIGINT, how long readiness answers 503 while the server keeps serving, so the load
   * balancer stops sending new requests before the listener closes.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_DELAY_MS = 0;

  /**
   * On SIGTERM/SIGINT, the whole time shutdown may take (drain delay included): in-flight requests
   * finish, the worker finishes or releases its deliveries, the pool closes. Keep it below the
   * orchestrator's kill deadline (Kubernetes terminationGracePeriodSeconds).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 25_000;

  /** How long an agent quote can be executed after it is created, in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400)
  QUOTE_TTL_SECONDS = 300;

  /**
   * The exchange-rate table quotes price from: units of each currency per 1 USD, `CODE=rate`
   * comma-separated (cross rates go through USD). A currency not listed cannot be quoted against
   * another currency (same-currency quotes are always 1:1).
   */
  @Matches(/^[A-Z]{3,5}=\d+(\.\d+)?(,[A-Z]{3,5}=\d+(\.\d+)?)*$/, {
    message: 'must be CODE=rate pairs separated by commas, e.g. EUR=0.92,GBP=0.79',
  })
  FX_RATES = 'EUR=0.92,GBP=0.79,CAD=1.37,MXN=17.2,BRL=5.4,INR=92.5,JPY=150,PHP=58,NGN=1550,USDC=1,BTC=0.000011';

  /** How long a rate read from the table is reused before it is read again (the spec's "about 5 minutes"). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600)
  FX_RATE_CACHE_SECONDS = 300;

  /** Fixed fee of a cross-currency quote, in minor units of the sending currency (rateDetails.serviceApiFixedFee). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  QUOTE_FIXED_FEE = 10;

  /** Variable fee rate of a cross-currency quote, a fraction of the sending amount (rateDetails.serviceApiVariableFeeRate). */
  @Transform(toNumber)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(0.5)
  QUOTE_VARIABLE_FEE_RATE = 0.003;

  /** How long an agent's device code can be redeemed, in seconds (default 24 hours). */
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 24 * 3600)
  AGENT_DEVICE_CODE_TTL_SECONDS = 24 * 3600;

  get embedded(): boolean {
    return !this.DATABASE_URL;
  }

  get allowPrivateWebhookTargets(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? (this.embedded && this.SANDBOX);
  }
}

function keyListProblem(value: string): string | null {
  try {
    parseKeyList(value);
    return null;
  } catch (error) {
    return `must be id:key pairs separated by commas, each key 32 bytes as base64 or hex (${(error as Error).message})`;
  }
}

/** Variables without a default (absent from `new AppConfig()`'s own keys). */
const OPTIONAL_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'WEBHOOK_KEY_ENCRYPTION_KEY',
  'KEY_ENCRYPTION_KEYS',
  'WEBHOOK_ALLOW_PRIVATE_TARGETS',
  'METRICS_PORT',
  'CORS_ORIGINS',
];

/** Never echoed in a configuration error. */
const SECRET_VARIABLES = new Set(['KEY_ENCRYPTION_KEYS']);

/** Every environment variable the service reads (deploy manifests are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(new AppConfig()), ...OPTIONAL_VARIABLES];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Validates the environment into a typed config; throws one error naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const raw: Record<string, string> = {};
  for (const key of CONFIG_VARIABLES) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw);
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map(
        (e) =>
          `${e.property}=${SECRET_VARIABLES.has(e.property) ? '(not shown)' : JSON.stringify(raw[e.property] ?? null)}: ${Object.values(e.constraints ?? {}).join('; ')}`,
      ),
    );
  }
  return config;
}
