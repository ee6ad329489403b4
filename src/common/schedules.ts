/**
 * Every schedule and expiry the database holds, with the clock it is on (docs/test-clocks.md).
 *
 * The rule: a due time is compared on the clock it was set from. `business` time is `Clock`
 * (`BusinessTime`: a sandbox platform's test clock moves it); `real` time is `RealClock`
 * (`RealTime`: infrastructure, never moved). Setting a due time on one and claiming it on the
 * other is the bug this registry exists to prevent (a card issued after an advance stayed
 * PROCESSING for the length of the advance).
 *
 * test/unit/foundation/schedules.spec.ts reads src/ and fails when:
 * - a migration adds a `timestamptz` column that is neither here (`SCHEDULES`), nor a plain record
 *   of when something happened (`STAMPS`, or named `created_at` / `updated_at`);
 * - an entity property of a column here is not typed `BusinessTime` / `RealTime` as its clock says
 *   (so `new Date(...)` or the other clock's reading does not compile into it);
 * - a file listed in `files` does not name its clock (`Clock` for business, `RealClock` for real);
 * - the test file does not exist, or docs/test-clocks.md does not name `table.column`.
 */
export type ScheduleClock = 'business' | 'real';

export interface Schedule {
  table: string;
  column: string;
  /** Which clock sets it and which clock it is compared with (the same one). */
  clock: ScheduleClock;
  /** `due`: the column holds the due time; `age`: a window is counted from it (an expiry by age). */
  kind: 'due' | 'age';
  /** What falls due, in words (docs/test-clocks.md uses the same words). */
  what: string;
  /** The files that read the clock to set it or compare it (each names its clock). */
  files: string[];
  /** The test that shows it on an advanced (business) or unmoved (real) clock. */
  test: string;
}

export const SCHEDULES: readonly Schedule[] = [
  {
    table: 'cards',
    column: 'provisioning_due_at',
    clock: 'real',
    kind: 'due',
    what: 'sandbox card provisioning (the worker completes a PROCESSING card about a second after issuance)',
    files: ['src/cards/cards.service.ts', 'src/cards/card-provisioning.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'quotes',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'quote expiry (QUOTE_EXPIRED; an action pending approval whose quote expired fails on approval)',
    files: ['src/quotes/quotes.service.ts', 'src/agents/actions/agent-actions.service.ts'],
    test: 'test/e2e/sandbox-clock.e2e-spec.ts',
  },
  {
    table: 'agent_device_codes',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'agent device-code expiry (redemption refused past it)',
    files: ['src/agents/agents.service.ts'],
    test: 'test/e2e/sandbox-clock.e2e-spec.ts',
  },
  {
    table: 'idempotency_keys',
    column: 'created_at',
    clock: 'business',
    kind: 'age',
    what: 'idempotency-key expiry (24 hours after first use)',
    files: ['src/idempotency/idempotency.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'outbox_events',
    column: 'next_attempt_at',
    clock: 'real',
    kind: 'due',
    what: 'webhook delivery and retries (backoff, Retry-After)',
    files: ['src/outbox/outbox.service.ts', 'src/outbox/outbox.dispatcher.ts'],
    test: 'test/e2e/sandbox-clock.e2e-spec.ts',
  },
  {
    table: 'outbox_events',
    column: 'locked_until',
    clock: 'real',
    kind: 'due',
    what: "webhook delivery leases (a crashed worker's claim expires)",
    files: ['src/outbox/outbox.dispatcher.ts'],
    test: 'test/e2e/outbox-dispatch.e2e-spec.ts',
  },
  {
    table: 'outbox_events',
    column: 'retrying_since',
    clock: 'real',
    kind: 'age',
    what: 'webhook give-up window (7 days of failed retries)',
    files: ['src/outbox/outbox.service.ts', 'src/outbox/outbox.dispatcher.ts'],
    test: 'test/e2e/outbox-dispatch.e2e-spec.ts',
  },
  {
    // eslint-disable-next-line no-restricted-syntax -- names the column for the scan; reads nothing
    table: 'webhook_signing_keys',
    column: 'previous_secret_expires_at',
    clock: 'real',
    kind: 'due',
    what: 'webhook signing-secret rotation overlap (the old secret signs for 24 hours)',
    files: ['src/platform-config/webhook-keys.service.ts'],
    test: 'test/e2e/outbox-dispatch.e2e-spec.ts',
  },
  {
    table: 'console_sessions',
    column: 'last_seen_at',
    clock: 'real',
    kind: 'age',
    what: 'console session idle timeout (CONSOLE_SESSION_IDLE_SECONDS)',
    files: ['src/auth/console-sessions.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'console_sessions',
    column: 'created_at',
    clock: 'real',
    kind: 'age',
    what: 'console session lifetime (CONSOLE_SESSION_MAX_SECONDS)',
    files: ['src/auth/console-sessions.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'audit_events',
    column: 'created_at',
    clock: 'real',
    kind: 'age',
    what: 'audit retention (AUDIT_RETENTION_DAYS)',
    files: ['src/audit/audit-trail.ts', 'src/audit/audit-retention.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
];

/**
 * `timestamptz` columns that only record when something happened: nothing falls due by them.
 * (`created_at` and `updated_at` are stamps unless `SCHEDULES` names them.)
 */
export const STAMPS: readonly string[] = [
  'api_tokens.revoked_at',
  'customers.deleted_at',
  'external_accounts.deleted_at',
  'outbox_events.delivered_at',
  'outbox_attempts.attempted_at',
  'cards.funding_detached_at',
  'card_transactions.authorized_at',
  'agents.deleted_at',
  'agent_device_codes.redeemed_at',
  'agent_device_codes.superseded_at',
  'agent_access_tokens.revoked_at',
  'outgoing_transactions.settled_at',
  'sandbox_clock_advances.from_time',
  'sandbox_clock_advances.to_time',
  'console_sessions.revoked_at',
];
