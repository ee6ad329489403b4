import type {
  IssuanceStatus,
  OperationOutcome,
  OperationStatus,
  OperationType,
  ProviderEnvironment,
  StablecoinNetwork,
} from '../stablecoin.types.js';

/** Credentials a platform submits to link a provider account (the secret is never stored in clear). */
export interface ProviderCredentials {
  apiClientId: string;
  apiClientSecret: string;
  /** Optional when the credentials expose exactly one provider account. */
  providerAccountId?: string;
  environment: ProviderEnvironment;
}

/** A linked account as the provider is called with it (the secret opened just for the call). */
export interface ProviderAccountRef {
  providerAccountId: string;
  apiClientId: string;
  apiClientSecret: string;
  environment: ProviderEnvironment;
}

/** The provider's view of a token it issued for the account. */
export interface ProviderToken {
  name: string;
  symbol: string;
  decimals: number;
  baseCurrency: string;
  issuanceStatus: IssuanceStatus;
}

/** What an external account is linked for (Brale "addresses"): debited, paid out to, or minted to. */
export type ExternalAccountPurpose = 'DEBIT' | 'PAYOUT' | 'MINT_DESTINATION';

/** The facts of a Grid external account the provider needs to link it. */
export interface ExternalAccountFacts {
  id: string;
  accountType: string;
  /** The account number (bank) or address (wallet): the provider identifies it by this. */
  identifier: string;
  purpose: ExternalAccountPurpose;
}

/** An operation handed to the provider (inside the creating transaction). */
export interface ProviderOperationRequest {
  operationId: string;
  operationType: OperationType;
  /** Coin smallest units. */
  amount: bigint;
  /** The same in fiat cents (the sandbox's magic values read it). */
  fiatAmount: bigint;
  fiatCurrency: string;
  symbol: string;
  network: StablecoinNetwork;
  /** WIRE / ACH_DEBIT / SAME_DAY_ACH_DEBIT for a mint; EXTERNAL_ACCOUNT / PROVIDER_INTERNAL_BALANCE for a burn. */
  sourceType: string;
  /** The burn's payout rail. */
  payoutRail?: string;
}

/** The provider's answer: how the operation will go, and what to show the platform. */
export interface ProviderOperationPlan {
  providerOperationId: string;
  providerStatus: string;
  /** The first status after CREATED (PENDING_FUNDING when the issuer must send funds first). */
  firstStatus: OperationStatus;
  fundingInstructions: Record<string, string> | null;
  outcome: OperationOutcome;
}

/** The provider's next status for an operation whose step is due; null: nothing to do yet. */
export interface ProviderStep {
  status: OperationStatus;
  providerStatus: string;
  failureReason?: string;
}

/**
 * One stablecoin provider (the reference's only one is BRALE). The sandbox provider stands in for
 * Brale as the sandbox rail stands in for a bank; a real adapter implements this class and is bound
 * in StablecoinsModule instead (docs/stablecoins.md, "A real provider"). Refusals are thrown as
 * ApiErrors with the spec's codes (STABLECOIN_PROVIDER_ACCOUNT_INVALID, STABLECOIN_VERIFICATION_FAILED,
 * the STABLECOIN_EXTERNAL_ACCOUNT_* link codes, STABLECOIN_PROVIDER_ERROR, STABLECOIN_PROVIDER_SOURCE_NOT_LINKED)
 * or SERVICE_UNAVAILABLE (503) while the provider cannot be reached. Calls carry the operation's
 * own id, so a retried request (its transaction rolled back) never creates a second operation there.
 */
export abstract class StablecoinProvider {
  /** Verifies the credentials; answers the provider account they select. */
  abstract verifyCredentials(credentials: ProviderCredentials): { providerAccountId: string };
  /** Looks up a token the provider created for the account (registration). */
  abstract token(
    account: ProviderAccountRef,
    request: { providerTokenIdentifier: string; networkTokenIdentifier: string; network: StablecoinNetwork },
  ): ProviderToken;
  /** Links (or finds the link of) an external account with the provider for `purpose`. */
  abstract linkExternalAccount(account: ProviderAccountRef, facts: ExternalAccountFacts): { providerAddressId: string };
  /** Checks that the account holds a provider internal balance of the token (a provider-balance burn spends it). */
  abstract requireInternalBalance(account: ProviderAccountRef, symbol: string): void;
  /** Creates the operation at the provider. */
  abstract createOperation(account: ProviderAccountRef, request: ProviderOperationRequest): ProviderOperationPlan;
  /** Whether the sandbox may report this operation's funds received (false: they never arrive). */
  abstract fundsCanArrive(outcome: OperationOutcome): boolean;
  /** The next status of an operation whose step is due (the sandbox decides it from the plan). */
  abstract nextStep(status: OperationStatus, outcome: OperationOutcome): ProviderStep | null;
}
