export class PlatformConfig1767225700000 {
    name = 'PlatformConfig1767225700000';
    async up(q) {
        await q.query(`
      CREATE TABLE platform_configs (
        platform_id uuid PRIMARY KEY REFERENCES platforms(id),
        id uuid NOT NULL UNIQUE,
        uma_domain text,
        proxy_uma_subdomain text,
        webhook_endpoint text,
        supported_currencies jsonb NOT NULL,
        card_configs jsonb NOT NULL,
        card_program jsonb NOT NULL,
        counterparty_requirements boolean NOT NULL DEFAULT false,
        is_regulated_financial_institution boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
        // Platforms created before this migration get the defaults new platforms get.
        await q.query(`INSERT INTO platform_configs (platform_id, id, supported_currencies, card_configs, card_program)
       SELECT p.id, gen_random_uuid(), $1::jsonb, $2::jsonb, $3::jsonb FROM platforms p`, [
            JSON.stringify([
                {
                    currencyCode: 'USD',
                    minAmount: 1,
                    maxAmount: 100_000_000,
                    requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
                    enabledTransactionTypes: ['OUTGOING', 'INCOMING', 'CARD'],
                },
            ]),
            JSON.stringify({
                pinTargetOrigin: null,
                maxSpendPerTransaction: null,
                maxSpendPerDay: null,
                maxTransactionsPerDay: null,
                panRevealCssUrl: null,
            }),
            JSON.stringify({
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
            }),
        ]);
    }
    async down(q) {
        await q.query(`DROP TABLE platform_configs`);
    }
}
//# sourceMappingURL=1767225700000-PlatformConfig.js.map