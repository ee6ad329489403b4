import { plainToInstance, Transform } from 'class-transformer';
import { parseKeyList } from '../secrets/key-list.js';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  Max,
  Min,
  validateSync,
} from 'class-validator';
import { Doc } from './variable-doc.js';
import { DEFAULT_FX_RATES, ECB_DAILY_URL } from './rate-defaults.js';
import { type AdapterOf, PORTS, portProblems } from './ports.js';
import {
  CUSTOMER_INFO_FIELDS,
  parseProviderRequiredFields,
  providerRequiredFieldsProblem,
  type CustomerInfoField,
} from './provider-required-fields.js';
import { parseTrustProxy, type TrustProxy } from '../common/client-address.js';
import {
  DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS,
  PAYMENT_DOCUMENT_TYPES,
  parsePaymentDocumentRequirements,
  type PaymentDocumentRequirements,
  paymentDocumentRequirementsProblem,
} from './payment-document-requirements.js';
import { type DirectoryData, directoryFileProblem, readDirectoryFile } from './directories.js';

const toBool = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;
const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

/** The EEA (the EU's 27, Iceland, Liechtenstein, Norway) and the UK: where PSD2-style SCA applies. */
export const SCA_DEFAULT_REGIONS = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'IS',
  'LI',
  'NO',
  'GB',
] as const;

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The whole process configuration, read from the environment once at boot (`loadConfig`).
 * Nothing else in the codebase reads `process.env`. Each variable's `@Doc` and validators are what
 * docs/configuration.md's table is generated from (`npm run docs:config`; a unit test fails when it is stale).
 */
export class AppConfig {
  @Doc('HTTP port (`0` picks a free one).')
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Doc('PostgreSQL URL (`postgres://...`). Unset: the embedded PGlite engine.')
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Doc(
    'A direct (session) PostgreSQL URL for what needs a session: the LISTEN connections (webhook wake-ups, token revocations) and the migration advisory lock. Set it when `DATABASE_URL` goes through a transaction-mode pooler (PgBouncer, see [Deployment](deployment.md#past-one-database)); unset, `DATABASE_URL` serves both.',
  )
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_DIRECT_URL?: string;

  @Doc('Where the embedded engine keeps its files; `memory://` for a throwaway database.')
  @IsString()
  PGLITE_DATA_DIR = './.data/pglite';

  @Doc('The level of the JSON log lines on stdout (see [Logs](operations.md#logs)).')
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  @Doc(
    '`api` (HTTP API, no delivery), `worker` (webhook delivery; serves only `/healthz` and `/readyz`) or `all` (both).',
  )
  @IsIn(ROLES)
  ROLE: Role = 'all';

  @Doc(
    'Whether this deployment is a sandbox (see [Production](production.md)): `true` simulates the outside world (sandbox adapters, magic values, every [sandbox route](sandbox.md)); `false` removes all of it and refuses to start if any port still names a `sandbox` adapter. `SANDBOX=true` with `DATABASE_URL` is allowed but announced: a warning at start, `sandbox: true` in `/readyz` and a banner on the console.',
    { default: '`true` on the embedded engine, `false` with `DATABASE_URL`' },
  )
  @Transform(toBool)
  @IsBoolean()
  SANDBOX = true;

  @Doc('Connections in the pool.')
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Doc(
    'How long a request waits for a free pool connection before it is answered 503 `SERVICE_UNAVAILABLE` (retryable), in milliseconds.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600000)
  DB_ACQUIRE_TIMEOUT_MS = 5000;

  /**
   * Hot-path statements (fixed SQL through `TransactionService.query`) are prepared by name once
   * per connection, so PostgreSQL parses and plans them once rather than on every request. Unset:
   * on, unless DATABASE_DIRECT_URL says DATABASE_URL goes through a transaction-mode pooler, which
   * can carry named statements only when it is PgBouncer 1.21+ with `max_prepared_statements` set
   * (say `true` then); an older pooler would hand the next transaction a server connection where
   * the name is unknown. The embedded engine never uses them (one session behind every connection).
   */
  @Doc(
    'Hot-path statements prepared by name once per connection (parsed and planned once). Behind a transaction-mode pooler only with PgBouncer 1.21+ and `max_prepared_statements` (then `true`); never on the embedded engine.',
    { default: 'on with PostgreSQL, off with `DATABASE_DIRECT_URL`' },
  )
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DB_PREPARED_STATEMENTS?: boolean;

  @Doc('Against PostgreSQL, apply pending migrations at boot under an advisory lock. The embedded engine always does.')
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN = false;

  @Doc(
    "**Deprecated: use `KEY_ENCRYPTION_KEYS`** (read as a one-key ring when that is unset; a start warns). The key-encryption key, the same on every replica. Encrypts every secret at rest (AES-256-GCM): each platform's webhook private key and `whsec_` secrets, and stored idempotent replays (which may hold a `clientSecret`). **Required with `DATABASE_URL`** (boot stops with a message naming it); make one with `openssl rand -base64 32`. The embedded engine without it generates one once and keeps it beside the data dir's real path (`<realpath of PGLITE_DATA_DIR>.webhook-key`, mode 0600, created only once the data dir is locked); losing that file makes the stored keys and replays unreadable.",
  )
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'must be 32 bytes as base64 (44 characters) or hex (64 characters)',
  })
  WEBHOOK_KEY_ENCRYPTION_KEY?: string;

  @Doc(
    'The key-encryption key ring: `id1:key1,id2:key2` (each 32 bytes, base64 or hex; ids 1 to 64 letters, digits, `_` or `-`; an entry without `id:` goes by its derived id). The first key seals; every key opens. Replaces `WEBHOOK_KEY_ENCRYPTION_KEY` (still read as a one-key ring, with a deprecation warning, when this is unset). Never echoed in an error. See [Key rotation](key-rotation.md).',
    { allowed: '`id:key` entries, comma-separated; each key 32 bytes, base64 or hex' },
  )
  @IsOptional()
  @ValidateBy({
    name: 'keyList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && keyListProblem(value) === null,
      defaultMessage: (args) => keyListProblem(String(args?.value)) ?? 'invalid',
    },
  })
  KEY_ENCRYPTION_KEYS?: string;

  @Doc(
    "`true` lets webhooks go to loopback, private, link-local and metadata addresses; `false` refuses them (checked after DNS resolution). **With `DATABASE_URL` private targets need `true` explicitly, whatever `SANDBOX` says**: `POST /sandbox/webhooks/test` answers the first 1 KiB of the target's response, so allowing them lets any MANAGE token read internal HTTP services.",
    { default: '`true` on the embedded engine with `SANDBOX=true`, else `false`' },
  )
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;

  @Doc('Webhook deliveries in flight at once per worker process.')
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_CONCURRENCY = 16;

  @Doc(
    "The worker's backstop poll for due events (retries, missed notifications); on the embedded engine the only wake-up.",
  )
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(1000)
  OUTBOX_POLL_INTERVAL_MS = 1000;

  @Doc(
    'Verified API credentials kept in memory per process (LRU); `0` turns the cache off (it is always off with `ROLE=worker`).',
  )
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  TOKEN_CACHE_SIZE = 10_000;

  @Doc(
    'How long a verified credential stays cached (`0` turns it off). A revocation evicts at once on every replica; the TTL bounds staleness only while the notification connection is down.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  TOKEN_CACHE_TTL_MS = 5_000;

  @Doc(
    "Webhook requests in flight at once to one endpoint, per worker process; each endpoint also has at most this many more claimed ahead. Keeps one slow receiver from taking every slot (see [Webhooks, the worker](webhooks.md#the-worker)); it also caps one endpoint's throughput per worker at this many divided by the receiver's response time.",
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  OUTBOX_ENDPOINT_CONCURRENCY = 8;

  @Doc(
    "How long a worker's claim on an event lasts. The worker renews the leases it holds every third of this while it works, so a worker that dies (`kill -9`, lost node) has its events taken over by another within about this long plus one poll interval.",
  )
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  OUTBOX_LEASE_MS = 15_000;

  @Doc(
    'Port of the Prometheus `GET /metrics` listener, separate from `PORT` so metrics are never public by accident (see [Observability](operations.md#observability)); `0` picks a free one. Suggested: `9464`, reachable only from the scraper (NetworkPolicy).',
    { default: 'unset (off)' },
  )
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  @Doc('Address the metrics listener binds (`127.0.0.1` keeps it on the host).')
  @IsString()
  METRICS_HOST = '0.0.0.0';

  @Doc(
    'Requests per API token per `RATE_LIMIT_WINDOW_MS`, **per replica** (see [Protection](operations.md#protection)); `0` turns it off.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_REQUESTS = 100;

  @Doc('The same per agent credential (agents call on their own; a tighter budget).')
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_AGENT_REQUESTS = 20;

  @Doc("The rate limit's window.")
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  RATE_LIMIT_WINDOW_MS = 1_000;

  @Doc(
    'Longest a request may take to arrive (then 400 `INVALID_REQUEST_FORMAT`) and to be handled (then 503 `SERVICE_UNAVAILABLE`, retryable; an idempotent retry is safe).',
  )
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  REQUEST_TIMEOUT_MS = 30_000;

  @Doc('Comma-separated origins allowed to call from a browser (`*` for any). Unset: no CORS headers at all.', {
    default: 'unset (CORS off)',
  })
  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @Doc(
    'On SIGTERM/SIGINT, how long readiness answers 503 while requests are still served, so the load balancer stops routing here first. Kubernetes: `5000`.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_DELAY_MS = 0;

  @Doc(
    "The whole shutdown's budget (drain delay included): in-flight requests finish, the worker finishes or releases its deliveries, the pool closes; past it the process exits 1. Keep it below `terminationGracePeriodSeconds` (30 s there).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 25_000;

  @Doc("How long an agent's quote can be executed after it is created.")
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400)
  QUOTE_TTL_SECONDS = 300;

  @Doc(
    "How long a platform has to approve or reject an incoming payment after answering its `INCOMING_PAYMENT.PENDING` webhook with 202 (or when no webhook endpoint is set), on the platform's clock; after it the payment fails with `PAYMENT_APPROVAL_TIMED_OUT` (see [Payments](payments.md#incoming-payments-and-the-platforms-approval)).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600)
  INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS = 5;

  @Doc(
    'The rate table cross-currency quotes price from: units of each currency per 1 USD (cross rates go through USD). A currency not listed cannot be quoted against another currency; same-currency quotes are always 1:1 (see [Agents, quotes](agents.md#quotes-execution-under-the-policy-approvals)).',
  )
  @Matches(/^[A-Z]{3,5}=\d+(\.\d+)?(,[A-Z]{3,5}=\d+(\.\d+)?)*$/, {
    message: 'must be CODE=rate pairs separated by commas, e.g. EUR=0.92,GBP=0.79',
  })
  FX_RATES = DEFAULT_FX_RATES;

  @Doc(
    "Which payment documents a quote's `purposeOfPayment` requires: `PURPOSE=REQUIREMENT:TYPE|TYPE,REQUIREMENT:TYPE;PURPOSE=...`. A requirement id is opaque (answered in `DOCUMENTS_REQUIRED`'s `details.missingRequirements`); its `|`-separated types are the alternatives that fill it (each a payment document type). A purpose not named needs no document; `none`: no purpose does (see [Onboarding, payment documents](onboarding.md#payment-documents-on-quotes)).",
    {
      default: `\`${DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS}\``,
      allowed: `document types: ${PAYMENT_DOCUMENT_TYPES.map((t) => `\`${t}\``).join(', ')}`,
    },
  )
  @ValidateBy({
    name: 'paymentDocumentRequirements',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && paymentDocumentRequirementsProblem(value) === null,
      defaultMessage: (args) =>
        `must be PURPOSE=REQUIREMENT:TYPE|TYPE,...;PURPOSE=... (${paymentDocumentRequirementsProblem(String(args?.value))})`,
    },
  })
  PAYMENT_DOCUMENT_REQUIREMENTS = DEFAULT_PAYMENT_DOCUMENT_REQUIREMENTS;

  /** PAYMENT_DOCUMENT_REQUIREMENTS parsed (validated at load). */
  get paymentDocumentRequirements(): PaymentDocumentRequirements {
    return parsePaymentDocumentRequirements(this.PAYMENT_DOCUMENT_REQUIREMENTS);
  }

  @Doc(
    'Path of a JSON file that extends the directories the deployment ships: `{"vasps": [{vaspName, url?}], "institutions": [{bankName, displayName, country, currency}], "withdrawalFees": [{currency, cryptoNetwork, networkFee, networkFeeAsset, networkFeeInCurrency, applicationFee}]}` (every list optional). Read once at start; an entry with the key of a shipped one replaces it (see [Directories](directories.md#extending-the-data)). A file that is missing or malformed stops the start, naming the problem. Unset: only the shipped data.',
    { allowed: 'a readable JSON file of that shape' },
  )
  @IsOptional()
  @ValidateBy({
    name: 'directoryExtraFile',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && directoryFileProblem(value) === null,
      defaultMessage: (args) => `must be a directory JSON file (${directoryFileProblem(String(args?.value))})`,
    },
  })
  DIRECTORY_EXTRA_FILE?: string;

  /** DIRECTORY_EXTRA_FILE parsed (validated at load); empty lists when unset. */
  get directoryExtra(): DirectoryData {
    return this.DIRECTORY_EXTRA_FILE
      ? readDirectoryFile(this.DIRECTORY_EXTRA_FILE)
      : { vasps: [], institutions: [], withdrawalFees: [] };
  }

  @Doc('How long a rate read from the table is reused before it is read again (the spec\'s "about 5 minutes").')
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600)
  FX_RATE_CACHE_SECONDS = 300;

  @Doc('Fixed fee of a cross-currency quote, minor units of the sending currency (`rateDetails.serviceApiFixedFee`).')
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  QUOTE_FIXED_FEE = 10;

  @Doc(
    'Variable fee of a cross-currency quote, a fraction of the sending amount (`rateDetails.serviceApiVariableFeeRate`).',
  )
  @Transform(toNumber)
  @IsNumber({}, { message: 'must be a number' })
  @Min(0)
  @Max(0.5)
  QUOTE_VARIABLE_FEE_RATE = 0.003;

  @Doc(
    "How long an agent's device code can be redeemed (default 24 hours; see [Agents, device codes](agents.md#device-codes)).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 24 * 3600)
  AGENT_DEVICE_CODE_TTL_SECONDS = 24 * 3600;

  @Doc(
    "Days an audit event is kept: the worker's retention job deletes older ones, the only deletion the audit table accepts (PCI DSS 10.5.1: a year, three months at hand; see [Security operations](security-operations.md)).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36_500)
  AUDIT_RETENTION_DAYS = 400;

  @Doc(
    "How often the worker's audit sealer links newly appended audit events into their platform's hash chain (milliseconds): the bound on how long an event stays unsealed, unless a transaction older than it is still open (see [Security operations](security-operations.md#the-audit-trail)).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  AUDIT_SEAL_INTERVAL_MS = 1000;

  @Doc(
    'Refused calls (401, 403, 429) are counted, not written one by one: identical refusals (same source address, credential, operation and code) within one window of this many milliseconds become one audit event with a count, first and last seen, written when the window closes (per replica).',
  )
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  AUDIT_REFUSAL_WINDOW_MS = 10_000;

  @Doc(
    'Distinct refusal tallies kept per window (per replica); refusals past it are counted in one overflow event (no source address, no credential) so a flood from many addresses still writes a bounded number of rows.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUDIT_REFUSAL_TALLIES = 1000;

  @Doc(
    'Failed authentications (a wrong API token or agent token, an ended console session) allowed per client address per AUTH_FAILURE_WINDOW_MS (per replica); past it, a credential from that address that is not already verified in memory is refused 429 before any database work until the window ends.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUTH_FAILURES_PER_ADDRESS = 30;

  @Doc('The window of AUTH_FAILURES_PER_ADDRESS, in milliseconds.')
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  AUTH_FAILURE_WINDOW_MS = 60_000;

  @Doc(
    "The operator console: a web application at `/console` on the API's own port, signed in with an API token, calling the same REST routes with a session cookie. `false` removes it (the pages, the sign-in routes, and cookie authentication on the API; see [Console](console.md)).",
  )
  @Transform(toBool)
  @IsBoolean()
  CONSOLE = true;

  @Doc('A console session ends after this many seconds without a request (default 30 minutes).')
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(7 * 24 * 3600)
  CONSOLE_SESSION_IDLE_SECONDS = 30 * 60;

  @Doc('A console session ends this many seconds after sign-in, however active (default 12 hours).')
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(30 * 24 * 3600)
  CONSOLE_SESSION_MAX_SECONDS = 12 * 3600;

  @Doc(
    'Failed console sign-ins allowed per client address per 15 minutes (per replica); past it every sign-in from that address is 429 until the window ends.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  CONSOLE_SIGNIN_FAILURES = 10;

  @Doc(
    "Which proxies in front of the service are trusted to name the client (Express `trust proxy`): the client address (per-address limits, the console sign-in limit, the audit trail's `sourceAddress`, the access log) and HTTPS (`X-Forwarded-Proto`) come from `X-Forwarded-For` only as appended by these hops, never from the left-most value a client wrote itself. Unset or `false`: the socket's peer, and forwarded headers are ignored. A hop count (`1`: the service is reachable only through one proxy) or comma-separated proxy addresses / CIDRs (`10.244.0.0/16`; `loopback`, `linklocal`, `uniquelocal` name those ranges). See [Deployment](deployment.md#the-client-address-behind-the-ingress).",
    {
      default: 'unset (off)',
      allowed: '`false`, a hop count `1` to `10`, or comma-separated IP addresses / CIDRs (never `true`)',
    },
  )
  @IsOptional()
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && trustProxyProblem(value) === null,
      defaultMessage: (args) =>
        `must be false, a hop count 1 to 10, or comma-separated proxy addresses/CIDRs (${trustProxyProblem(String(args?.value))})`,
    },
  })
  TRUST_PROXY?: string;

  /** TRUST_PROXY as Express takes it (see src/common/client-address.ts). */
  get trustProxy(): TrustProxy {
    return parseTrustProxy(this.TRUST_PROXY);
  }

  @Doc(
    'The SCA-regulated regions: ISO 3166-1 alpha-2 country codes, comma-separated. A customer whose address country is one of them gets SCA challenges and sessions; for every other customer each SCA endpoint answers 409 (see [SCA](sca.md)).',
    { default: 'the EEA (EU 27, IS, LI, NO) and GB' },
  )
  @Matches(/^[A-Z]{2}(,[A-Z]{2})*$/, { message: 'must be ISO country codes separated by commas (e.g. FR,DE,GB)' })
  SCA_REGIONS = SCA_DEFAULT_REGIONS.join(',');

  @Doc(
    "The origins a passkey (WebAuthn) ceremony may run against (the platform app's origins), comma-separated; a registration or assertion produced elsewhere is refused (see [SCA](sca.md)).",
  )
  @Matches(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(,https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?)*$/, {
    message: 'must be http(s) origins separated by commas (e.g. https://app.example.com)',
  })
  SCA_PASSKEY_ORIGINS = 'http://localhost:3000';

  @Doc('The WebAuthn relying-party id passkeys are bound to (a registrable domain of the origins).', {
    default: 'the host of the first `SCA_PASSKEY_ORIGINS` origin',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9.-]{1,253}$/, { message: 'must be a host name (e.g. example.com)' })
  SCA_PASSKEY_RP_ID?: string;

  @Doc(
    'The Grid End User Terms versions customers may accept (`endUserTermsConsent.termsVersion` on customer create and update), comma-separated; the last one is the current version `GET /customers/end-user-terms` answers. Another version: 400 `END_USER_TERMS_VERSION_NOT_FOUND` (see [Customers](customers.md#end-user-terms)).',
  )
  @Matches(/^[A-Za-z0-9._-]{1,64}(,[A-Za-z0-9._-]{1,64})*$/, {
    message: 'must be version identifiers separated by commas (e.g. V1,V2)',
  })
  END_USER_TERMS_VERSIONS = 'V1';

  @Doc('Where the current End User Terms are hosted (the `url` of `GET /customers/end-user-terms`).')
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  END_USER_TERMS_URL = 'https://www.lightspark.com/legal/grid/enduserterms';

  @Doc(
    "The customer information fields the payment provider requires for a currency (the reference's `providerRequiredCustomerFields`, shown per currency in `GET /config`): `CURRENCY=FIELD|FIELD;CURRENCY=...`. A customer created or updated with that currency among its `currencies` must carry them, or the request answers 400 `MISSING_MANDATORY_USER_INFO` (see [Customers](customers.md#required-customer-information)). Empty: no currency requires any.",
    { allowed: `fields: ${CUSTOMER_INFO_FIELDS.map((f) => `\`${f}\``).join(', ')}` },
  )
  @ValidateBy({
    name: 'providerRequiredCustomerFields',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && providerRequiredFieldsProblem(value) === null,
      defaultMessage: (args) =>
        `must be CURRENCY=FIELD|FIELD;... (${providerRequiredFieldsProblem(String(args?.value))})`,
    },
  })
  PROVIDER_REQUIRED_CUSTOMER_FIELDS = '';

  /** PROVIDER_REQUIRED_CUSTOMER_FIELDS parsed (validated at load): currency code to field names. */
  get providerRequiredCustomerFields(): ReadonlyMap<string, readonly CustomerInfoField[]> {
    return parseProviderRequiredFields(this.PROVIDER_REQUIRED_CUSTOMER_FIELDS);
  }

  @Doc(
    "The regions whose customers' provider requires contact verification (the customer's `region`, ISO 3166-1 alpha-2, comma-separated): such a customer shows `contactVerification` and must verify the channels of `CONTACT_VERIFICATION_CHANNELS`; for every other customer the verify-email / verify-phone routes answer 409 (see [Customers](customers.md#contact-verification)). `none`: no region.",
    { default: 'the EEA (EU 27, IS, LI, NO) and GB' },
  )
  @Matches(/^(none|[A-Z]{2}(,[A-Z]{2})*)$/, { message: 'must be ISO country codes separated by commas, or none' })
  CONTACT_VERIFICATION_REGIONS = SCA_DEFAULT_REGIONS.join(',');

  @Doc('Which contact channels those customers verify: `EMAIL`, `PHONE` or both, comma-separated.')
  @Matches(/^(EMAIL|PHONE)(,(EMAIL|PHONE))?$/, { message: 'must be EMAIL, PHONE or EMAIL,PHONE' })
  CONTACT_VERIFICATION_CHANNELS = 'EMAIL,PHONE';

  @Doc(
    'The card issuer adapter (see [Production](production.md)): `sandbox` (this service invents card identities and serves the reveal page) or `none` (no issuer configured: card operations that need one, such as `POST /cards/{id}/reveal`, answer 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `CARD_ISSUER`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.CARD_ISSUER.adapters))
  CARD_ISSUER?: AdapterOf<'CARD_ISSUER'>;

  @Doc(
    'The public base URL of this service (e.g. `https://api.example.com`), used to build URLs it hands out, such as the sandbox card reveal page (`panEmbedUrl`).',
    { default: "the request's own scheme and host" },
  )
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+$/, {
    message: 'must be an http(s) origin without a path (e.g. https://api.example.com)',
  })
  PUBLIC_BASE_URL?: string;

  @Doc(
    "This deployment's UMA domain: customers' `umaAddress` values are `$user@<domain>`, and counterparties fetch `https://<domain>/.well-known/lnurlp/<user>` (plain `http://` for `localhost`, `127.0.0.1`, `*.local` and `*.internal`, as the UMA library does; see [UMA](uma.md)).",
    { default: '`localhost:<the port listened on>`' },
  )
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/, { message: 'must be a host name with an optional :port' })
  UMA_DOMAIN?: string;

  @Doc(
    'The UMA signing key (secp256k1, 32 bytes hex), with `UMA_SIGNING_CERT_CHAIN`. Unset with `SANDBOX=true`: a key pair and a self-signed certificate are generated on first use and stored sealed; unset with `SANDBOX=false`: UMA is off (503 SERVICE_UNAVAILABLE (details.notConfigured: UMA_SIGNING_PRIVATE_KEY)).',
  )
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 32 bytes as hex' })
  UMA_SIGNING_PRIVATE_KEY?: string;

  @Doc('PEM certificate chain (leaf first) of `UMA_SIGNING_PRIVATE_KEY`, published at `/.well-known/lnurlpubkey`.')
  @IsOptional()
  @IsString()
  UMA_SIGNING_CERT_CHAIN?: string;

  @Doc('The UMA encryption key (secp256k1, 32 bytes hex); unset: the signing key serves both.')
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 32 bytes as hex' })
  UMA_ENCRYPTION_PRIVATE_KEY?: string;

  @Doc('PEM certificate chain (leaf first) of `UMA_ENCRYPTION_PRIVATE_KEY`.')
  @IsOptional()
  @IsString()
  UMA_ENCRYPTION_CERT_CHAIN?: string;

  @Doc(
    'How far (seconds) the timestamp of a signed UMA message may be from this clock; older or newer is 400 INVALID_TIMESTAMP.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(3600)
  UMA_MAX_MESSAGE_AGE_SECONDS = 300;

  @Doc(
    'How long (seconds, real time) a settlement callback to another UMA deployment is retried before it is given up (default 3 days: as long as a counterparty can reasonably be down). Retries back off from 1 s to at most 5 minutes. It is also the horizon of the settlement inquiry: a payment the receiver still does not know after it is refunded, and the receiver records a tombstone so a late callback can never credit it (see [UMA, reconciliation](uma.md#reconciliation-the-settlement-inquiry)).',
  )
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2_592_000)
  UMA_SETTLEMENT_RETRY_HORIZON_SECONDS = 259_200;

  @Doc(
    "How old (seconds, real time) an unresolved UMA payment must be before the sender asks the receiver what became of it (the signed settlement inquiry, repeated with backoff up to 5 minutes); from then on it counts in `uma_settlement_unresolved` and shows on the console's Needs attention page (see [UMA, reconciliation](uma.md#reconciliation-the-settlement-inquiry)).",
  )
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS = 600;

  @Doc(
    'Base URL of the page where an invitation is claimed (`url` is `<base>/<code>`). Unset: invitations are off (400 INVITATIONS_NOT_CONFIGURED) unless `SANDBOX=true`, where it is `http://<UMA domain>/invitations`.',
  )
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  UMA_INVITATION_URL?: string;

  @Doc(
    'Where one-time codes go (SCA, contact verification, wallet OTPs): each email or SMS is POSTed here as JSON `{channel: "EMAIL" | "SMS", to, purpose, code}`, the bridge to a real provider (a 2xx takes it). Set, it is the `hook` adapter of `EMAIL_TRANSPORT` and `SMS_TRANSPORT` unless those choose another (see [Production](production.md#email-and-sms)).',
  )
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  MESSAGE_HOOK_URL?: string;

  @Doc(
    'The payout rail adapter (see [Production](production.md)): `sandbox` (magic amounts, simulated settlement), `modern-treasury` or `none` (payouts answer 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `PAYOUT_RAIL`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.PAYOUT_RAIL.adapters))
  PAYOUT_RAIL?: AdapterOf<'PAYOUT_RAIL'>;

  @Doc(
    'The stablecoin provider adapter: `sandbox` or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `STABLECOIN_PROVIDER`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.STABLECOIN_PROVIDER.adapters))
  STABLECOIN_PROVIDER?: AdapterOf<'STABLECOIN_PROVIDER'>;

  @Doc(
    'The bank account linking adapter (Plaid Link): `sandbox` or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `BANK_LINK_PROVIDER`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.BANK_LINK_PROVIDER.adapters))
  BANK_LINK_PROVIDER?: AdapterOf<'BANK_LINK_PROVIDER'>;

  @Doc(
    'The KYC provider adapter (hosted identity checks): `sandbox` or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `KYC_PROVIDER`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.KYC_PROVIDER.adapters))
  KYC_PROVIDER?: AdapterOf<'KYC_PROVIDER'>;

  @Doc(
    'How email one-time codes leave: `smtp`, `hook` (`MESSAGE_HOOK_URL`), `sandbox` (a log line, never the code) or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `EMAIL_TRANSPORT`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`hook` when `MESSAGE_HOOK_URL` is set; else `sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.EMAIL_TRANSPORT.adapters))
  EMAIL_TRANSPORT?: AdapterOf<'EMAIL_TRANSPORT'>;

  @Doc(
    'How SMS one-time codes leave: `twilio`, `hook` (`MESSAGE_HOOK_URL`), `sandbox` (a log line, never the code) or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `SMS_TRANSPORT`)). `sandbox` is refused with `SANDBOX=false`.',
    { default: '`hook` when `MESSAGE_HOOK_URL` is set; else `sandbox` with `SANDBOX=true`, else `none`' },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.SMS_TRANSPORT.adapters))
  SMS_TRANSPORT?: AdapterOf<'SMS_TRANSPORT'>;

  @Doc(
    "Where exchange rates come from: `ecb` (the European Central Bank's daily reference rates), `static` (`FX_RATES`, set by the operator), `sandbox` (`FX_RATES` defaults) or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `RATE_SOURCE`)). `sandbox` is refused with `SANDBOX=false`.",
    {
      default:
        "`sandbox` with `SANDBOX=true`; else `static` when `FX_RATES` is set to the operator's own table, else `none`",
    },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.RATE_SOURCE.adapters))
  RATE_SOURCE?: AdapterOf<'RATE_SOURCE'>;

  @Doc(
    "Where uploaded documents' bytes are kept: `database` (beside their row) or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `DOCUMENT_STORE`)).",
    {
      default: '`database`',
    },
  )
  @IsOptional()
  @IsIn(Object.keys(PORTS.DOCUMENT_STORE.adapters))
  DOCUMENT_STORE?: AdapterOf<'DOCUMENT_STORE'>;

  // Email, SMS and exchange-rate adapters (docs/production.md, src/config/ports.ts).
  @Doc(
    'The SMTP relay `EMAIL_TRANSPORT=smtp` sends through: `smtps://user:password@host:465` (TLS from the start) or `smtp://user:password@host:587` (STARTTLS when the server offers it); user and password URL-encoded. Required with `EMAIL_TRANSPORT=smtp`. Secret: never logged or echoed.',
  )
  @IsOptional()
  @Matches(/^smtps?:\/\/[^\s]+$/, {
    message: 'must be an smtp:// or smtps:// URL',
  })
  SMTP_URL?: string;

  @Doc(
    'The `From` of every email `EMAIL_TRANSPORT=smtp` sends: an address the relay may send as, optionally with a name (`Payments <no-reply@example.com>`). Required with `EMAIL_TRANSPORT=smtp`.',
  )
  @IsOptional()
  @Matches(/^([^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+(>)?$/, {
    message: 'must be an email address, optionally `Name <address>`',
  })
  EMAIL_FROM?: string;

  @Doc('The Twilio account SID (`AC...`) `SMS_TRANSPORT=twilio` sends with. Required with `SMS_TRANSPORT=twilio`.')
  @IsOptional()
  @Matches(/^AC[0-9a-fA-F]{32}$/, {
    message: 'must be a Twilio account SID, AC and 32 hex digits',
  })
  TWILIO_ACCOUNT_SID?: string;

  @Doc(
    "The Twilio account's auth token (or an API key secret paired with the account SID). Required with `SMS_TRANSPORT=twilio`. Secret: never logged or echoed.",
  )
  @IsOptional()
  @IsString()
  TWILIO_AUTH_TOKEN?: string;

  @Doc(
    'The sender of every SMS `SMS_TRANSPORT=twilio` sends: a Twilio phone number in E.164 (`+15005550006`) or an alphanumeric sender ID. Required with `SMS_TRANSPORT=twilio` unless `TWILIO_MESSAGING_SERVICE_SID` is set (which then wins).',
  )
  @IsOptional()
  @Matches(/^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11})$/, {
    message: 'must be an E.164 number or an alphanumeric sender ID',
  })
  TWILIO_FROM?: string;

  @Doc(
    "A Twilio Messaging Service SID (`MG...`): Twilio picks the sender from the service's pool (and applies its compliance settings). With `SMS_TRANSPORT=twilio`, this or `TWILIO_FROM`.",
  )
  @IsOptional()
  @Matches(/^MG[0-9a-fA-F]{32}$/, { message: 'must be a Twilio Messaging Service SID, MG and 32 hex digits' })
  TWILIO_MESSAGING_SERVICE_SID?: string;

  @Doc(
    "Where the Twilio SDK's REST calls go instead of `https://api.twilio.com` (same paths): a regional proxy, or a local stand-in speaking Twilio's Messages API in tests.",
    { default: '`https://api.twilio.com`' },
  )
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(:\d+)?\/?$/, { message: 'must be an http(s) origin, e.g. http://127.0.0.1:4010' })
  TWILIO_API_BASE_URL?: string;

  @Doc(
    "The ECB's daily euro foreign exchange reference rates (XML) `RATE_SOURCE=ecb` reads; another URL serving the same document (a mirror, a test's stand-in) works too.",
  )
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  ECB_RATES_URL = ECB_DAILY_URL;

  @Doc(
    'How often the rates worker fetches `ECB_RATES_URL` with `RATE_SOURCE=ecb` (the ECB publishes once per TARGET business day, around 16:00 CET); also the retry interval after a failed fetch.',
  )
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400)
  ECB_POLL_SECONDS = 3_600;

  @Doc(
    "How old a feed's rates may be (from their as-of date: for the ECB, 16:00 CET of the reference day) before quotes and `GET /exchange-rates` refuse them with 503 `SERVICE_UNAVAILABLE` (`details.maxAgeSeconds`, `details.asOf`). The default, 4 days, spans a weekend plus a public holiday (the ECB publishes nothing on weekends and TARGET holidays). Static and sandbox rates never go stale.",
  )
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  RATE_MAX_AGE_SECONDS = 4 * 86_400;

  @Doc(
    "Modern Treasury API key (Developer settings; with `PAYOUT_RAIL=modern-treasury`, required). Payouts are paid by payment orders created through Modern Treasury's SDK (see [Production, Modern Treasury](modern-treasury.md)).",
  )
  @ValidateIf((o: AppConfig) => o.PAYOUT_RAIL === 'modern-treasury' || o.MODERN_TREASURY_API_KEY !== undefined)
  @IsDefined({ message: 'is required with PAYOUT_RAIL=modern-treasury' })
  @IsString()
  MODERN_TREASURY_API_KEY?: string;

  @Doc('Modern Treasury organization ID, sent with the API key (with `PAYOUT_RAIL=modern-treasury`, required).')
  @ValidateIf((o: AppConfig) => o.PAYOUT_RAIL === 'modern-treasury' || o.MODERN_TREASURY_ORGANIZATION_ID !== undefined)
  @IsDefined({ message: 'is required with PAYOUT_RAIL=modern-treasury' })
  @Matches(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    message: 'must be a Modern Treasury organization ID (a UUID)',
  })
  MODERN_TREASURY_ORGANIZATION_ID?: string;

  @Doc(
    "Modern Treasury's API base URL; unset: `https://app.moderntreasury.com` (the SDK's default). Tests point it at a local stand-in.",
  )
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  MODERN_TREASURY_BASE_URL?: string;

  @Doc(
    'Modern Treasury webhook key (Developer settings, webhooks): inbound webhooks at `POST /webhooks/rails/modern-treasury` are refused unless their `X-Signature` is the HMAC-SHA256 of the body with it (with `PAYOUT_RAIL=modern-treasury`, required).',
  )
  @ValidateIf((o: AppConfig) => o.PAYOUT_RAIL === 'modern-treasury' || o.MODERN_TREASURY_WEBHOOK_KEY !== undefined)
  @IsDefined({ message: 'is required with PAYOUT_RAIL=modern-treasury' })
  @IsString()
  MODERN_TREASURY_WEBHOOK_KEY?: string;

  @Doc(
    'The Modern Treasury internal account every payout is paid from (`originating_account_id` of each payment order; with `PAYOUT_RAIL=modern-treasury`, required).',
  )
  @ValidateIf(
    (o: AppConfig) => o.PAYOUT_RAIL === 'modern-treasury' || o.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID !== undefined,
  )
  @IsDefined({ message: 'is required with PAYOUT_RAIL=modern-treasury' })
  @Matches(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    message: 'must be a Modern Treasury internal account ID (a UUID)',
  })
  MODERN_TREASURY_ORIGINATING_ACCOUNT_ID?: string;

  get embedded(): boolean {
    return !this.DATABASE_URL;
  }

  /** `SANDBOX=true` on PostgreSQL: allowed, but said at start, in `/readyz` and on the console. */
  get sandboxOnDatabase(): boolean {
    return this.SANDBOX && !this.embedded;
  }

  get allowPrivateWebhookTargets(): boolean {
    return this.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? (this.embedded && this.SANDBOX);
  }
}

function trustProxyProblem(value: string): string | null {
  try {
    parseTrustProxy(value);
    return null;
  } catch (error) {
    return (error as Error).message;
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
  'TRUST_PROXY',
  'UMA_DOMAIN',
  'UMA_SIGNING_PRIVATE_KEY',
  'UMA_SIGNING_CERT_CHAIN',
  'UMA_ENCRYPTION_PRIVATE_KEY',
  'UMA_ENCRYPTION_CERT_CHAIN',
  'UMA_INVITATION_URL',
  'MESSAGE_HOOK_URL',
  'DIRECTORY_EXTRA_FILE',
  'CARD_ISSUER',
  'PAYOUT_RAIL',
  'STABLECOIN_PROVIDER',
  'BANK_LINK_PROVIDER',
  'KYC_PROVIDER',
  'EMAIL_TRANSPORT',
  'SMS_TRANSPORT',
  'RATE_SOURCE',
  'DOCUMENT_STORE',
  'SMTP_URL',
  'EMAIL_FROM',
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_FROM',
  'TWILIO_MESSAGING_SERVICE_SID',
  'TWILIO_API_BASE_URL',
  'MODERN_TREASURY_API_KEY',
  'MODERN_TREASURY_ORGANIZATION_ID',
  'MODERN_TREASURY_BASE_URL',
  'MODERN_TREASURY_WEBHOOK_KEY',
  'MODERN_TREASURY_ORIGINATING_ACCOUNT_ID',
];

/** Never echoed in a configuration error. */
const SECRET_VARIABLES = new Set([
  'KEY_ENCRYPTION_KEYS',
  'WEBHOOK_KEY_ENCRYPTION_KEY',
  'UMA_SIGNING_PRIVATE_KEY',
  'UMA_ENCRYPTION_PRIVATE_KEY',
  'SMTP_URL',
  'TWILIO_AUTH_TOKEN',
  'MODERN_TREASURY_API_KEY',
  'MODERN_TREASURY_WEBHOOK_KEY',
]);

/** Every environment variable the service reads (deploy manifests are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = [
  ...new Set([...Object.keys(new AppConfig()), ...OPTIONAL_VARIABLES]),
];

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
  // SANDBOX defaults to true only on the embedded engine: a database deployment is production
  // unless it says otherwise.
  if (raw.SANDBOX === undefined && raw.DATABASE_URL !== undefined) raw.SANDBOX = 'false';
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
  // Fail closed: with SANDBOX=false no port may run a sandbox adapter.
  const unsafe = portProblems(config);
  if (unsafe.length > 0) throw new ConfigError(unsafe);
  return config;
}
