import type { MigrationInterface, QueryRunner } from 'typeorm';

const BEFORE = `'RAIL_CLEARING', 'FX', 'FEES_COLLECTED', 'PLATFORM_REVENUE', 'SANDBOX_FUNDING', 'CARD_SETTLEMENT', 'OPENING_BALANCE', 'UMA_SETTLEMENT'`;
const AFTER = `${BEFORE}, 'STABLECOIN_SUPPLY', 'STABLECOIN_RESERVE'`;

/**
 * Stablecoin issuance (docs/stablecoins.md): a platform's provider account links (the API client
 * secret sealed by SecretBox), its registered stablecoins (symbol and network token identifier
 * unique per platform; the Grid enablement state the operator drives), the external accounts linked
 * with the provider (its address ids, kept internally), and the coins' mint and burn
 * operations (amounts in the coin's smallest unit and in the fiat's cents; two due times: the
 * sandbox provider's next step on real time, the funding expiry on the platform's clock). The
 * ledger gains STABLECOIN_SUPPLY (the coin's outstanding supply, in the coin) and
 * STABLECOIN_RESERVE (the fiat backing it, at the provider).
 */
export class Stablecoins1767229100000 implements MigrationInterface {
  name = 'Stablecoins1767229100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE stablecoin_provider_accounts (
      id uuid PRIMARY KEY,
      platform_id uuid NOT NULL REFERENCES platforms(id),
      provider text NOT NULL CHECK (provider IN ('BRALE')),
      provider_environment text NOT NULL CHECK (provider_environment IN ('SANDBOX', 'PRODUCTION')),
      provider_account_id text NOT NULL CHECK (char_length(provider_account_id) BETWEEN 1 AND 255),
      api_client_id text NOT NULL CHECK (char_length(api_client_id) BETWEEN 1 AND 255),
      api_client_secret text NOT NULL,
      status text NOT NULL CHECK (status IN ('ACTIVE', 'INVALID', 'REVOKED')),
      last_verified_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(
      `CREATE INDEX stablecoin_provider_accounts_platform ON stablecoin_provider_accounts (platform_id, id)`,
    );
    await q.query(`CREATE UNIQUE INDEX stablecoin_provider_accounts_active
      ON stablecoin_provider_accounts (platform_id, provider, provider_environment, provider_account_id)
      WHERE status = 'ACTIVE'`);

    await q.query(`CREATE TABLE stablecoins (
      id uuid PRIMARY KEY,
      platform_id uuid NOT NULL REFERENCES platforms(id),
      provider_account_id uuid NOT NULL REFERENCES stablecoin_provider_accounts(id),
      provider text NOT NULL CHECK (provider IN ('BRALE')),
      provider_environment text NOT NULL CHECK (provider_environment IN ('SANDBOX', 'PRODUCTION')),
      name text NOT NULL,
      symbol text NOT NULL CHECK (char_length(symbol) BETWEEN 1 AND 32),
      base_currency text NOT NULL,
      network text NOT NULL CHECK (network IN ('SPARK')),
      decimals integer NOT NULL CHECK (decimals BETWEEN 2 AND 18),
      issuance_status text NOT NULL
        CHECK (issuance_status IN ('PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED')),
      grid_operations_status text NOT NULL
        CHECK (grid_operations_status IN ('NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED')),
      network_token_identifier text NOT NULL CHECK (char_length(network_token_identifier) BETWEEN 1 AND 255),
      provider_token_identifier text NOT NULL CHECK (char_length(provider_token_identifier) BETWEEN 1 AND 255),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX stablecoins_symbol ON stablecoins (platform_id, symbol)`);
    await q.query(
      `CREATE UNIQUE INDEX stablecoins_token_identifier ON stablecoins (platform_id, network_token_identifier)`,
    );
    await q.query(`CREATE INDEX stablecoins_platform ON stablecoins (platform_id, id)`);

    // An external account linked with the provider (Brale "addresses"): found again on its next use.
    await q.query(`CREATE TABLE stablecoin_external_account_links (
      id uuid PRIMARY KEY,
      platform_id uuid NOT NULL REFERENCES platforms(id),
      provider_account_id uuid NOT NULL REFERENCES stablecoin_provider_accounts(id),
      external_account_id uuid NOT NULL REFERENCES external_accounts(id),
      provider_address_id text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE UNIQUE INDEX stablecoin_external_account_links_account
      ON stablecoin_external_account_links (provider_account_id, external_account_id)`);

    await q.query(`CREATE TABLE stablecoin_operations (
      id uuid PRIMARY KEY,
      platform_id uuid NOT NULL REFERENCES platforms(id),
      stablecoin_id uuid NOT NULL REFERENCES stablecoins(id),
      provider_account_id uuid NOT NULL REFERENCES stablecoin_provider_accounts(id),
      operation_type text NOT NULL CHECK (operation_type IN ('MINT', 'BURN')),
      status text NOT NULL CHECK (status IN
        ('CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
      amount bigint NOT NULL CHECK (amount > 0 AND amount <= 9007199254740991),
      fiat_amount bigint NOT NULL CHECK (fiat_amount > 0),
      fiat_currency text NOT NULL,
      source jsonb NOT NULL,
      destination jsonb NOT NULL,
      funding_instructions jsonb,
      estimated_delivery jsonb,
      provider_operation_id text NOT NULL,
      provider_refs jsonb NOT NULL DEFAULT '{}'::jsonb,
      provider_status text,
      outcome text NOT NULL CHECK (outcome IN ('COMPLETE', 'FAIL', 'EXPIRE', 'NEVER_FUNDED')),
      failure_reason text,
      description text CHECK (char_length(description) <= 1024),
      expires_at timestamptz,
      next_step_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX stablecoin_operations_coin ON stablecoin_operations (stablecoin_id, id)`);
    await q.query(`CREATE INDEX stablecoin_operations_next_step ON stablecoin_operations (next_step_at)
      WHERE next_step_at IS NOT NULL`);
    await q.query(`CREATE INDEX stablecoin_operations_expiry ON stablecoin_operations (expires_at)
      WHERE status IN ('CREATED', 'PENDING_FUNDING')`);

    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_system_account`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_system_account
      CHECK (system_account IN (${AFTER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_system_account`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_system_account
      CHECK (system_account IN (${BEFORE}))`);
    await q.query(`DROP TABLE stablecoin_operations`);
    await q.query(`DROP TABLE stablecoin_external_account_links`);
    await q.query(`DROP TABLE stablecoins`);
    await q.query(`DROP TABLE stablecoin_provider_accounts`);
  }
}
