/**
 * Card program and platform card settings (part of the platform configuration). Types and
 * defaults only: any area may import them; the settings themselves are read through
 * PlatformConfigService (`cardSettings`).
 */
export const CARD_CAPABILITY_NAMES = [
    'supportsSpendLimits',
    'supportsSpendLimitsAtIssuance',
    'supportsTransactionCountLimit',
    'supports3dSecurePassword',
    'supportsPanReveal',
    'supportsDigitalWalletTokenization',
];
export const AUTHORIZATION_DECISION_MAKERS = ['SERVICE', 'ISSUER'];
export const SANDBOX_PROVISIONING_MODES = ['AUTOMATIC', 'MANUAL'];
export const DEFAULT_CARD_CONFIGS = {
    pinTargetOrigin: null,
    maxSpendPerTransaction: null,
    maxSpendPerDay: null,
    maxTransactionsPerDay: null,
    panRevealCssUrl: null,
};
/** Sandbox defaults: the service decides, every capability on, 1000 live cards, several per cardholder. */
export const DEFAULT_CARD_PROGRAM = {
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
//# sourceMappingURL=card-program.js.map