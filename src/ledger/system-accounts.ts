/** The service's own ledger accounts (see docs/ledger.md), one per (platform, currency, kind). */
export const SYSTEM_ACCOUNT_KINDS = [
  'RAIL_CLEARING',
  'FX',
  'FEES_COLLECTED',
  'PLATFORM_REVENUE',
  'SANDBOX_FUNDING',
  'CARD_SETTLEMENT',
  'OPENING_BALANCE',
  'UMA_SETTLEMENT',
  'STABLECOIN_SUPPLY',
  'STABLECOIN_RESERVE',
] as const;
export type SystemAccountKind = (typeof SYSTEM_ACCOUNT_KINDS)[number];
