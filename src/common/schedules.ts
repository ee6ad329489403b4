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
    what: 'quote expiry (QUOTE_EXPIRED; an action pending approval whose quote expired fails on approval; a transaction left PENDING_AUTHORIZATION is EXPIRED by the worker)',
    files: [
      'src/payments/quotes/quotes.service.ts',
      'src/agents/actions/agent-actions.service.ts',
      'src/payments/rail/rail-worker.service.ts',
    ],
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
  {
    table: 'outgoing_transactions',
    column: 'rail_due_real_at',
    clock: 'real',
    kind: 'due',
    what: "the sandbox rail's next fast step (PENDING, PROCESSING, COMPLETED about a second apart; a return after completion)",
    files: ['src/payments/quotes/quote-execution.service.ts', 'src/payments/rail/rail-worker.service.ts'],
    test: 'test/e2e/payments.e2e-spec.ts',
  },
  {
    table: 'outgoing_transactions',
    column: 'rail_settles_business_at',
    clock: 'business',
    kind: 'due',
    what: "the slow rail's settlement (PROCESSING to COMPLETED 3 days of the platform's time after execution)",
    files: ['src/payments/quotes/quote-execution.service.ts', 'src/payments/rail/rail-worker.service.ts'],
    test: 'test/e2e/payments.e2e-spec.ts',
  },
  {
    table: 'sca_challenges',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'SCA challenge expiry (SCA_CHALLENGE_EXPIRED)',
    files: ['src/sca/sca-challenges.service.ts', 'src/sca/sca.service.ts'],
    test: 'test/e2e/sca.e2e-spec.ts',
  },
  {
    table: 'sca_challenges',
    column: 'code_sent_at',
    clock: 'business',
    kind: 'age',
    what: 'the SMS re-send interval (a code re-sent within 30 seconds of the last send is 429 RATE_LIMITED)',
    files: ['src/sca/sca-challenges.service.ts'],
    test: 'test/e2e/sca-quotes.e2e-spec.ts',
  },
  {
    table: 'sca_sessions',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'SCA login session expiry (SCA_SESSION_REQUIRED after it)',
    files: ['src/sca/sca.service.ts'],
    test: 'test/e2e/sca.e2e-spec.ts',
  },
  {
    table: 'sca_login_states',
    column: 'locked_until',
    clock: 'business',
    kind: 'due',
    what: "an end customer's login lockout after failed attempts (ACCOUNT_LOCKED until it)",
    files: ['src/sca/sca.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'sca_factor_resets',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'SCA factor-reset expiry (an unfinished reset is EXPIRED after it)',
    files: ['src/sca/sca.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'card_reveals',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: "card-reveal URL expiry (2 minutes; on the card's platform's clock, which only moves forward)",
    files: ['src/cards/card-reveal.service.ts'],
    test: 'test/e2e/sca.e2e-spec.ts',
  },
  {
    table: 'kyc_links',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'hosted KYC link expiry (1 hour; KYC_LINK_INVALID after it)',
    files: ['src/verifications/verifications.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'uma_invitations',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'UMA invitation expiry (INVITATION_EXPIRED on claim after it)',
    files: ['src/uma/invitations.service.ts'],
    test: 'test/e2e/test-clock-schedules.e2e-spec.ts',
  },
  {
    table: 'uma_nonces',
    column: 'message_time',
    clock: 'real',
    kind: 'age',
    what: "UMA replay window (a counterparty's signed message older or newer than the window is refused)",
    files: ['src/uma/uma-verifier.ts'],
    test: 'test/e2e/uma.e2e-spec.ts',
  },
  {
    table: 'uma_nonces',
    column: 'seen_at',
    clock: 'real',
    kind: 'age',
    what: 'UMA nonce pruning (a nonce is kept for the replay window after it was seen)',
    files: ['src/uma/uma-verifier.ts'],
    test: 'test/e2e/uma.e2e-spec.ts',
  },
  {
    table: 'incoming_transactions',
    column: 'decide_by',
    clock: 'business',
    kind: 'due',
    what: "the platform's approval window of an incoming payment (INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS; FAILED with PAYMENT_APPROVAL_TIMED_OUT after it)",
    files: ['src/payments/incoming/incoming-payments.service.ts', 'src/payments/incoming/incoming-payments.worker.ts'],
    test: 'test/e2e/incoming-payments.e2e-spec.ts',
  },
  {
    table: 'incoming_transactions',
    column: 'settles_business_at',
    clock: 'business',
    kind: 'due',
    what: "a slow sandbox sender's settlement (PROCESSING to COMPLETED an hour of the platform's time after approval)",
    files: ['src/payments/incoming/incoming-payments.service.ts', 'src/payments/incoming/incoming-payments.worker.ts'],
    test: 'test/e2e/incoming-payments.e2e-spec.ts',
  },
  {
    table: 'uma_settlement_messages',
    column: 'next_attempt_at',
    clock: 'real',
    kind: 'due',
    what: 'UMA settlement callback delivery (the next attempt of a signed callback to the other deployment; retried with backoff)',
    files: ['src/uma/uma-settlement.worker.ts'],
    test: 'test/e2e/uma-payments.e2e-spec.ts',
  },
  {
    table: 'stablecoin_operations',
    column: 'next_step_at',
    clock: 'real',
    kind: 'due',
    what: "the sandbox stablecoin provider's next step (CREATED, PENDING_PROVIDER, PROCESSING, COMPLETED about a second apart)",
    files: ['src/stablecoins/stablecoin-operations.service.ts', 'src/stablecoins/stablecoin-operations.worker.ts'],
    test: 'test/e2e/stablecoins.e2e-spec.ts',
  },
  {
    table: 'stablecoin_operations',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: "a stablecoin operation's funding window (7 days of the platform's time; EXPIRED when the wire or the coins never came)",
    files: ['src/stablecoins/stablecoin-operations.service.ts', 'src/stablecoins/stablecoin-operations.worker.ts'],
    test: 'test/e2e/stablecoins.e2e-spec.ts',
  },
  {
    table: 'uma_settlement_messages',
    column: 'created_at',
    clock: 'real',
    kind: 'age',
    what: 'UMA settlement callback retry horizon (UMA_SETTLEMENT_RETRY_HORIZON_SECONDS after it was written, a callback still failing is given up)',
    files: ['src/uma/uma-settlement.service.ts', 'src/uma/uma-settlement.worker.ts'],
    test: 'test/e2e/uma-reconciliation.e2e-spec.ts',
  },
  {
    table: 'uma_payments',
    column: 'settling_since',
    clock: 'real',
    kind: 'age',
    what: "an unresolved UMA payment's age (past UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS it counts as unresolved; past UMA_SETTLEMENT_RETRY_HORIZON_SECONDS its inquiry is final)",
    files: [
      'src/uma/uma-settlement.service.ts',
      'src/uma/uma-reconciliation.service.ts',
      'src/uma/uma-reconciliation.worker.ts',
    ],
    test: 'test/e2e/uma-reconciliation.e2e-spec.ts',
  },
  {
    table: 'uma_payments',
    column: 'inquiry_due_at',
    clock: 'real',
    kind: 'due',
    what: 'the next settlement inquiry of an unresolved UMA payment (first UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS after settlement began, then with backoff; a lease while one is asked)',
    files: [
      'src/uma/uma-settlement.service.ts',
      'src/uma/uma-reconciliation.service.ts',
      'src/uma/uma-reconciliation.worker.ts',
    ],
    test: 'test/e2e/uma-reconciliation.e2e-spec.ts',
  },
  {
    table: 'wallet_otps',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'embedded-wallet one-time password expiry (embeddedWalletConfig.expirationSeconds; a verify after it is 401)',
    files: ['src/embedded-wallets/wallets.service.ts'],
    test: 'test/e2e/embedded-wallets.e2e-spec.ts',
  },
  {
    table: 'wallet_sessions',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'embedded-wallet session expiry (15 minutes; its key signs nothing after it)',
    files: ['src/embedded-wallets/wallets.service.ts', 'src/embedded-wallets/wallet-signatures.service.ts'],
    test: 'test/e2e/embedded-wallets.e2e-spec.ts',
  },
  {
    table: 'wallet_signed_requests',
    column: 'expires_at',
    clock: 'business',
    kind: 'due',
    what: 'signed-retry challenge expiry (5 minutes; a retry after it is 401 WALLET_SIGNATURE_INVALID)',
    files: ['src/embedded-wallets/wallet-signatures.service.ts'],
    test: 'test/e2e/embedded-wallets.e2e-spec.ts',
  },
];

/**
 * `timestamptz` columns that only record when something happened: nothing falls due by them.
 * (`created_at` and `updated_at` are stamps unless `SCHEDULES` names them.)
 */
export const STAMPS: readonly string[] = [
  'api_tokens.revoked_at',
  'wallet_credentials.deleted_at',
  'wallet_otps.used_at',
  'wallet_sessions.revoked_at',
  'wallet_signed_requests.consumed_at',
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
  'audit_events.appended_at',
  'audit_events.last_seen',
  'incoming_transactions.receipt_delivery_confirmed_at',
  'incoming_transactions.settled_at',
  'outgoing_transactions.receipt_delivery_confirmed_at',
  // the slow rail's settlement as shown to the platform (`expectedSettlementAt`); the worker claims rail_settles_business_at
  'outgoing_transactions.expected_settlement_at',
  'documents.submitted_at',
  'kyc_links.used_at',
  'bulk_import_jobs.completed_at',
  'sca_challenges.used_at',
  'sca_sessions.revoked_at',
  'sca_factor_resets.completed_at',
  'card_reveals.used_at',
  'external_accounts.trusted_at',
  'uma_invitations.claimed_at',
  'stablecoin_provider_accounts.last_verified_at',
];
