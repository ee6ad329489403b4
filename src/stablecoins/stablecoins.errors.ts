/**
 * Error codes of stablecoin issuance (docs/stablecoins.md) and their HTTP status; merged into the one
 * catalogue (src/error-catalogue.ts). The 400s and 409s are the spec's; the 404s are the reference's
 * (grid-2026-newer errors.yaml).
 */
export const STABLECOINS_ERRORS = {
  /** The credentials do not verify with the provider, or the link is INVALID. */
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: 400,
  /** The link was revoked: it refuses new registrations and operations. */
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: 400,
  /** Several ACTIVE links: pass `stablecoinProviderAccountId`. */
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: 400,
  /** The amount is not a whole fiat cent at the coin's decimals. */
  STABLECOIN_AMOUNT_NOT_REPRESENTABLE: 400,
  /** The burn source cannot be used (a Grid internal account: embedded wallets are not available yet). */
  STABLECOIN_BURN_SOURCE_NOT_SUPPORTED: 400,
  /** Linking the external account for stablecoin operations failed (the sandbox: account ending 0402). */
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED: 400,
  /** An ACH debit needs a link method (a debit authorization) the account has not got (sandbox: 0403). */
  STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED: 400,
  /** The external account is not ACTIVE, so it cannot be linked for stablecoin operations. */
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED: 400,
  /** The external account's type cannot play this part (or it is a customer's, not the platform's). */
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED: 400,
  /** The provider refused to link the external account (sandbox: 0401). */
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED: 400,
  /** The provider holds the account for review: it must be linked there first (sandbox: 0404). */
  STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED: 400,
  /** The operation needs the coin ENABLED for Grid operations. */
  STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED: 400,
  /** The coin's issuanceStatus is not PROVISIONED. */
  STABLECOIN_NOT_PROVISIONED: 400,
  /** A reserved variant (GRID_INTERNAL_ACCOUNT / PROVIDER_INTERNAL_BALANCE funding, an InternalAccount destination). */
  STABLECOIN_OPERATION_NOT_SUPPORTED: 400,
  /** The provider rejected the operation. */
  STABLECOIN_PROVIDER_ERROR: 400,
  /** The provider account has no internal balance linked for this coin. */
  STABLECOIN_PROVIDER_SOURCE_NOT_LINKED: 400,
  /** The provider does not know the token, or what it knows does not match the request. */
  STABLECOIN_VERIFICATION_FAILED: 400,
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: 404,
  STABLECOIN_NOT_FOUND: 404,
  STABLECOIN_OPERATION_NOT_FOUND: 404,
  STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND: 404,
  /** Enablement can be requested only while NOT_ENABLED (a repeat while PENDING_APPROVAL succeeds). */
  STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE: 409,
  STABLECOIN_SYMBOL_ALREADY_EXISTS: 409,
  STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS: 409,
} as const;
