import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids.js';
import { PlaidClient, type PlaidBankAccount } from './plaid-client.js';

/** Plaid sandbox's own test routing number and its test identity (user_good). */
const SANDBOX_ROUTING_NUMBER = '011401533';
const SANDBOX_OWNER: PlaidBankAccount['owner'] = {
  fullName: 'Alberta Bobbeth Charleson',
  address: { line1: '2992 Cameron Road', city: 'Malakoff', state: 'NY', postalCode: '14236', country: 'US' },
};

/**
 * The sandbox stand-in for Plaid: Link tokens look like Plaid's sandbox ones
 * (`link-sandbox-<uuid>`); a public token is accepted when it starts `public-sandbox-` (what Plaid
 * Link returns in its sandbox) and names an item with two accounts, `checking` and `savings`
 * (`accountId` picks one, default checking), whose account numbers are derived from the public
 * token, so each Link session yields a distinct bank account. No network.
 */
@Injectable()
export class SandboxPlaidClient extends PlaidClient {
  createLinkToken(): Promise<{ linkToken: string; requestId?: string }> {
    return Promise.resolve({ linkToken: `link-sandbox-${newUuid()}`, requestId: newUuid() });
  }

  exchangePublicToken(publicToken: string): Promise<{ accessToken: string } | null> {
    if (!/^public-sandbox-[A-Za-z0-9-]{1,200}$/.test(publicToken)) return Promise.resolve(null);
    return Promise.resolve({ accessToken: `access-sandbox-${publicToken.slice('public-sandbox-'.length)}` });
  }

  getAccount(accessToken: string, accountId?: string): Promise<PlaidBankAccount | null> {
    const subtype =
      accountId === undefined || accountId === 'checking' ? 'checking' : accountId === 'savings' ? 'savings' : null;
    if (subtype === null) return Promise.resolve(null);
    const digest = createHash('sha256').update(`${accessToken}/${subtype}`).digest();
    const accountNumber = String(digest.readBigUInt64BE(0) % 10_000_000_000n).padStart(10, '0');
    return Promise.resolve({
      accountId: subtype,
      accountNumber: `11${accountNumber}`,
      routingNumber: SANDBOX_ROUTING_NUMBER,
      subtype,
      institutionName: 'First Platypus Bank',
      owner: SANDBOX_OWNER,
    });
  }
}
