import { portNotConfigured } from '../../common/requires-port.js';
import { PlaidClient, type PlaidBankAccount } from './plaid-client.js';

/**
 * Bank account linking when none is configured (`BANK_LINK_PROVIDER=none`, docs/production.md):
 * the Plaid routes answer 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `BANK_LINK_PROVIDER`) before anything is written
 * (`@RequiresPort` on PlaidController); a call that still reaches the client gets the same answer.
 */
export class UnconfiguredPlaidClient extends PlaidClient {
  createLinkToken(): Promise<{ linkToken: string }> {
    return Promise.reject(portNotConfigured('BANK_LINK_PROVIDER'));
  }
  exchangePublicToken(): Promise<{ accessToken: string } | null> {
    return Promise.reject(portNotConfigured('BANK_LINK_PROVIDER'));
  }
  getAccount(): Promise<PlaidBankAccount | null> {
    return Promise.reject(portNotConfigured('BANK_LINK_PROVIDER'));
  }
}
