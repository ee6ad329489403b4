/**
 * The seam to Plaid (docs/external-accounts.md, "Plaid"). The service needs three of Plaid's
 * calls: `/link/token/create` (a Link token for one end user), `/item/public_token/exchange` (the
 * Link session's public token for an access token) and `/auth/get` with `/identity/get` (the chosen
 * account's ACH numbers and its owner). ExternalAccountsModule binds the sandbox stand-in
 * (sandbox-plaid-client.ts); a real client implements this class with Plaid's Node library
 * (`plaid`'s `PlaidApi`: `linkTokenCreate`, `itemPublicTokenExchange`, `authGet`, `identityGet`)
 * and replaces `useClass` there. A rejected public token or account answers `null`, which the
 * service turns into 400 INVALID_INPUT; anything else thrown is an outage (500, not leaked).
 */
export abstract class PlaidClient {
  /** Plaid `/link/token/create` for the end user `clientUserId` (the customer's id). */
  abstract createLinkToken(input: { clientUserId: string }): Promise<{ linkToken: string; requestId?: string }>;

  /** Plaid `/item/public_token/exchange`; null when Plaid rejects the public token. */
  abstract exchangePublicToken(publicToken: string): Promise<{ accessToken: string } | null>;

  /**
   * The depository account of the item (`accountId`, or the item's first checking or savings
   * account), from `/auth/get` and `/identity/get`; null when there is no such account.
   */
  abstract getAccount(accessToken: string, accountId?: string): Promise<PlaidBankAccount | null>;
}

/** What the service keeps of a Plaid account: ACH numbers, type and the owner Plaid verified. */
export interface PlaidBankAccount {
  accountId: string;
  accountNumber: string;
  routingNumber: string;
  subtype: 'checking' | 'savings';
  institutionName: string;
  owner: {
    fullName: string;
    address: { line1: string; city: string; state: string; postalCode: string; country: string };
  };
}
