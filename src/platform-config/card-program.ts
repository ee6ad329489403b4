/**
 * Card program and platform card settings (part of the platform configuration). Types and
 * defaults only: any area may import them; the settings themselves are read through
 * PlatformConfigService (`cardSettings`).
 */

/** The reference's CardConfig: platform-wide caps (lower of card and platform applies). */
export interface CardConfigs {
  pinTargetOrigin: string | null;
  maxSpendPerTransaction: number | null;
  maxSpendPerDay: number | null;
  maxTransactionsPerDay: number | null;
  panRevealCssUrl: string | null;
}

export const CARD_CAPABILITY_NAMES = [
  'supportsSpendLimits',
  'supportsSpendLimitsAtIssuance',
  'supportsTransactionCountLimit',
  'supports3dSecurePassword',
  'supportsPanReveal',
  'supportsDigitalWalletTokenization',
] as const;
export type CardCapabilityName = (typeof CARD_CAPABILITY_NAMES)[number];
export type CardCapabilities = Record<CardCapabilityName, boolean>;

export const AUTHORIZATION_DECISION_MAKERS = ['SERVICE', 'ISSUER'] as const;
export type AuthorizationDecisionMaker = (typeof AUTHORIZATION_DECISION_MAKERS)[number];

export const SANDBOX_PROVISIONING_MODES = ['AUTOMATIC', 'MANUAL'] as const;
export type SandboxProvisioning = (typeof SANDBOX_PROVISIONING_MODES)[number];

/** Our own card program settings (not in the reference): who decides authorizations, capabilities, slots. */
export interface CardProgram {
  authorizationDecisionMaker: AuthorizationDecisionMaker;
  cardCapabilities: CardCapabilities;
  maxLiveCards: number;
  oneLiveCardPerCardholder: boolean;
  /**
   * Sandbox issuer only: AUTOMATIC completes a new card's provisioning in the background (about a
   * second, by the worker); MANUAL leaves it PROCESSING until `POST /sandbox/cards/{id}/simulate/provisioning`.
   */
  sandboxProvisioning: SandboxProvisioning;
}

export const DEFAULT_CARD_CONFIGS: CardConfigs = {
  pinTargetOrigin: null,
  maxSpendPerTransaction: null,
  maxSpendPerDay: null,
  maxTransactionsPerDay: null,
  panRevealCssUrl: null,
};

/** Sandbox defaults: the service decides, every capability on, 1000 live cards, several per cardholder. */
export const DEFAULT_CARD_PROGRAM: CardProgram = {
  authorizationDecisionMaker: 'SERVICE',
  cardCapabilities: {
    supportsSpendLimits: true,
    supportsSpendLimitsAtIssuance: true,
    supportsTransactionCountLimit: true,
    supports3dSecurePassword: true,
    supportsPanReveal: true,
    supportsDigitalWalletTokenization: true,
  },
  maxLiveCards: 1000,
  oneLiveCardPerCardholder: false,
  sandboxProvisioning: 'AUTOMATIC',
};
