/** The reference's enums of the Stablecoins tag (grid-openapi-2026-08-21.yaml). */
export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export type StablecoinProviderName = (typeof STABLECOIN_PROVIDERS)[number];

export const STABLECOIN_NETWORKS = ['SPARK'] as const;
export type StablecoinNetwork = (typeof STABLECOIN_NETWORKS)[number];

export const PROVIDER_ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;
export type ProviderEnvironment = (typeof PROVIDER_ENVIRONMENTS)[number];

export const PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type ProviderAccountStatus = (typeof PROVIDER_ACCOUNT_STATUSES)[number];

export const ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type IssuanceStatus = (typeof ISSUANCE_STATUSES)[number];

export const GRID_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
export type GridOperationsStatus = (typeof GRID_OPERATIONS_STATUSES)[number];

/** What the operator may set (the platform only requests: NOT_ENABLED -> PENDING_APPROVAL). */
export const OPERATOR_GRID_STATUSES = ['ENABLING', 'ENABLED', 'DISABLED'] as const;
export type OperatorGridStatus = (typeof OPERATOR_GRID_STATUSES)[number];

/** The operator's transitions (anything else is 409 INVALID_STATE_TRANSITION). */
export const OPERATOR_TRANSITIONS: Readonly<Record<GridOperationsStatus, readonly OperatorGridStatus[]>> = {
  NOT_ENABLED: [],
  PENDING_APPROVAL: ['ENABLING', 'DISABLED'],
  ENABLING: ['ENABLED', 'DISABLED'],
  ENABLED: ['DISABLED'],
  DISABLED: ['ENABLING'],
};

export const OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export const OPERATION_STATUSES = [
  'CREATED',
  'PENDING_FUNDING',
  'PENDING_PROVIDER',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
export const TERMINAL_STATUSES: readonly OperationStatus[] = ['COMPLETED', 'FAILED', 'EXPIRED'];

export const MINT_FUNDING_TYPES = [
  'WIRE',
  'ACH_DEBIT',
  'SAME_DAY_ACH_DEBIT',
  'GRID_INTERNAL_ACCOUNT',
  'PROVIDER_INTERNAL_BALANCE',
] as const;
export type MintFundingType = (typeof MINT_FUNDING_TYPES)[number];

export const BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'GRID_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export type BurnSourceType = (typeof BURN_SOURCE_TYPES)[number];

export const PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];

/** What the sandbox provider will do with an operation (chosen by its magic amount). */
export type OperationOutcome = 'COMPLETE' | 'FAIL' | 'EXPIRE' | 'NEVER_FUNDED';

/** The merged source shape of a StablecoinOperation (reference StablecoinOperationSource). */
export interface OperationSource {
  type: MintFundingType | 'EXTERNAL_ACCOUNT';
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

/** The flat destination shape (reference StablecoinOperationDestination). */
export interface OperationDestination {
  accountId: string;
  rail?: PayoutRail;
}
