import type { RailDestination } from '../rail.js';

/**
 * Our external account as Modern Treasury's counterparty account (`counterparty_create_request`
 * `accounts[]`), and which Modern Treasury payment types it can take. Read from the account's
 * fields, not its type name, so every account type carrying the same identifiers maps the same way:
 *
 * | our accountInfo                                   | Modern Treasury account                         | payment types        |
 * |---------------------------------------------------|-------------------------------------------------|----------------------|
 * | `routingNumber` + `accountNumber` (USD_ACCOUNT)   | `aba` routing + account number, checking/savings | ach, wire, rtp       |
 * | `iban` (+ `swiftCode`) (EUR, DKK, AED, ILS, TRY…) | `iban` account + `swift` routing when given     | sepa (EUR), wire     |
 * | `sortCode` + `accountNumber` (GBP_ACCOUNT)        | `gb_sort_code` routing + account number         | gb_fps, bacs         |
 * | `bankCode` + `branchCode` + `accountNumber` (CAD) | `ca_cpa` routing (0 + bank + branch)            | eft                  |
 * | `ifsc` + `accountNumber` (INR_ACCOUNT)            | `in_ifsc` routing + account number              | neft                 |
 * | `swiftCode` + `accountNumber` (SWIFT, HKD, SGD…)  | `swift` routing + account number                | wire, cross_border   |
 *
 * Anything else (mobile money, PIX, UPI, CLABE, wallets) is refused before any call.
 */
export type MtPaymentType = 'ach' | 'wire' | 'rtp' | 'sepa' | 'gb_fps' | 'bacs' | 'eft' | 'neft' | 'cross_border';

export interface MtAccount {
  account_type: 'checking' | 'savings' | 'other';
  party_type: 'business' | 'individual';
  party_name: string;
  party_address?: MtAddress;
  account_details: { account_number: string; account_number_type?: 'iban' | 'other' }[];
  routing_details: { routing_number: string; routing_number_type: MtRoutingType; payment_type?: MtPaymentType }[];
}

type MtRoutingType = 'aba' | 'swift' | 'gb_sort_code' | 'ca_cpa' | 'in_ifsc';

interface MtAddress {
  line1: string;
  line2?: string;
  locality: string;
  region?: string;
  postal_code: string;
  country: string;
}

export interface MappedDestination {
  account: MtAccount;
  /** Payment types this account can take, the default first. */
  paymentTypes: MtPaymentType[];
}

/** A destination Modern Treasury cannot pay: not retryable (the payout fails and is refunded). */
export class UnsupportedDestination extends Error {
  override readonly name = 'UnsupportedDestination';
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, '') : null;

function address(value: unknown): MtAddress | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const a = value as Record<string, unknown>;
  const get = (k: string): string | undefined => {
    const v = a[k];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const line1 = get('line1');
  const locality = get('city') ?? get('locality');
  const postal = get('postalCode') ?? get('postal_code');
  const country = get('country');
  if (!line1 || !locality || !postal || !country) return undefined;
  return {
    line1,
    ...(get('line2') ? { line2: get('line2') } : {}),
    locality,
    ...((get('state') ?? get('region')) ? { region: get('state') ?? get('region') } : {}),
    postal_code: postal,
    country,
  };
}

export function mapDestination(destination: RailDestination): MappedDestination {
  const info = destination.accountInfo;
  const beneficiary = (info.beneficiary ?? null) as Record<string, unknown> | null;
  const base = {
    party_type: destination.beneficiaryKind === 'BUSINESS' ? ('business' as const) : ('individual' as const),
    party_name: destination.beneficiaryName,
    ...(address(beneficiary?.address) ? { party_address: address(beneficiary?.address) } : {}),
  };
  const accountNumber = text(info.accountNumber);
  const swift = text(info.swiftCode) ?? text(info.bic);
  const iban = text(info.iban);
  const routing = text(info.routingNumber);

  if (routing && accountNumber) {
    return {
      account: {
        ...base,
        account_type: info.bankAccountType === 'SAVINGS' ? 'savings' : 'checking',
        account_details: [{ account_number: accountNumber, account_number_type: 'other' }],
        routing_details: [{ routing_number: routing, routing_number_type: 'aba' }],
      },
      paymentTypes: ['ach', 'wire', 'rtp'],
    };
  }
  if (iban) {
    return {
      account: {
        ...base,
        account_type: 'other',
        account_details: [{ account_number: iban, account_number_type: 'iban' }],
        routing_details: swift ? [{ routing_number: swift, routing_number_type: 'swift' }] : [],
      },
      // SEPA takes euro to an IBAN; anything else to an IBAN goes by wire (needs the BIC).
      paymentTypes:
        destination.currency === 'EUR' ? ['sepa', ...(swift ? (['wire'] as const) : [])] : swift ? ['wire'] : [],
    };
  }
  const sortCode = text(info.sortCode);
  if (sortCode && accountNumber) {
    return {
      account: {
        ...base,
        account_type: 'other',
        account_details: [{ account_number: accountNumber, account_number_type: 'other' }],
        routing_details: [{ routing_number: sortCode, routing_number_type: 'gb_sort_code' }],
      },
      paymentTypes: ['gb_fps', 'bacs'],
    };
  }
  const bankCode = text(info.bankCode);
  const branchCode = text(info.branchCode);
  if (bankCode && branchCode && accountNumber) {
    return {
      account: {
        ...base,
        account_type: 'checking',
        account_details: [{ account_number: accountNumber, account_number_type: 'other' }],
        // Canadian Payments Association routing number: 0 + institution (3) + transit (5).
        routing_details: [{ routing_number: `0${bankCode}${branchCode}`, routing_number_type: 'ca_cpa' }],
      },
      paymentTypes: ['eft'],
    };
  }
  const ifsc = text(info.ifsc);
  if (ifsc && accountNumber) {
    return {
      account: {
        ...base,
        account_type: 'other',
        account_details: [{ account_number: accountNumber, account_number_type: 'other' }],
        routing_details: [{ routing_number: ifsc, routing_number_type: 'in_ifsc' }],
      },
      paymentTypes: ['neft'],
    };
  }
  if (swift && accountNumber) {
    return {
      account: {
        ...base,
        account_type: 'other',
        account_details: [{ account_number: accountNumber, account_number_type: 'other' }],
        routing_details: [{ routing_number: swift, routing_number_type: 'swift' }],
      },
      paymentTypes: ['wire', 'cross_border'],
    };
  }
  throw new UnsupportedDestination(
    `Modern Treasury cannot pay a ${destination.accountType} external account (${destination.externalAccountId}): it needs a US routing and account number, an IBAN, a UK sort code, a Canadian bank and branch code, an IFSC, or a SWIFT/BIC with an account number`,
  );
}

/** Our payment rail (a quote's `paymentRail`) as Modern Treasury's payment type and priority. */
const RAILS: Record<string, { type: MtPaymentType; priority?: 'high' | 'normal' }> = {
  ACH: { type: 'ach', priority: 'normal' },
  // Same-day ACH is an ACH payment order with high priority at Modern Treasury.
  ACH_SAME_DAY: { type: 'ach', priority: 'high' },
  SAME_DAY_ACH_CREDIT: { type: 'ach', priority: 'high' },
  ACH_CREDIT: { type: 'ach', priority: 'normal' },
  WIRE: { type: 'wire' },
  SWIFT: { type: 'wire' },
  RTP: { type: 'rtp' },
  RTP_CREDIT: { type: 'rtp' },
  SEPA: { type: 'sepa' },
  FASTER_PAYMENTS: { type: 'gb_fps' },
  BACS: { type: 'bacs' },
  EFT: { type: 'eft' },
  NEFT: { type: 'neft' },
};

/** The payment type (and priority) for `paymentRail` to this destination; refuses a pair Modern Treasury cannot do. */
export function paymentTypeFor(
  paymentRail: string | null,
  mapped: MappedDestination,
  destination: RailDestination,
): { type: MtPaymentType; priority?: 'high' | 'normal' } {
  if (paymentRail === null || paymentRail === 'BANK_TRANSFER') {
    const type = mapped.paymentTypes[0];
    if (!type) {
      throw new UnsupportedDestination(
        `Modern Treasury has no payment type for ${destination.currency} to ${destination.externalAccountId} (an IBAN outside euro needs its BIC for a wire)`,
      );
    }
    return { type };
  }
  const rail = RAILS[paymentRail];
  if (!rail) throw new UnsupportedDestination(`Modern Treasury does not offer the ${paymentRail} rail`);
  if (!mapped.paymentTypes.includes(rail.type)) {
    throw new UnsupportedDestination(
      `${paymentRail} cannot reach ${destination.externalAccountId} (${destination.accountType}) through Modern Treasury`,
    );
  }
  return rail;
}
