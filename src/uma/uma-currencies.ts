import { currencyInfo } from '../customers/currencies.js';
import { parseRateTable } from '../payments/exchange-rates/fx-rates.service.js';

/** UMA's settlement unit: millisatoshis (1 BTC = 10^11 msats). */
const MSATS_PER_BTC = 1e11;

/**
 * Conversion between currencies and UMA's millisatoshis from the rate table (FX_RATES, units per
 * USD, BTC among them): what this deployment publishes as each currency's `multiplier` (msats per
 * minor unit) and how a lookup turns a counterparty's multipliers into estimated rates.
 */
export class UmaRates {
  private readonly perUsd: Map<string, number>;

  constructor(fxRates: string) {
    this.perUsd = parseRateTable(fxRates);
  }

  /** Millisatoshis per minor unit of `code`, or null when the table has no rate for it (or for BTC). */
  msatsPerMinorUnit(code: string): number | null {
    const btc = this.perUsd.get('BTC');
    const rate = this.perUsd.get(code);
    if (!btc || !rate) return null;
    return ((btc / rate) * MSATS_PER_BTC) / 10 ** currencyInfo(code).decimals;
  }

  /**
   * Major units of the receiving currency per major unit of `from`, given the receiver's multiplier
   * (msats per minor unit) and decimals; null without a rate for `from`.
   */
  estimatedRate(from: string, multiplier: number, decimals: number): number | null {
    const sender = this.msatsPerMinorUnit(from);
    if (sender === null || !(multiplier > 0)) return null;
    const rate = (sender * 10 ** currencyInfo(from).decimals) / (multiplier * 10 ** decimals);
    return Number(rate.toPrecision(8));
  }
}

/** The reference's CustomerInfoFieldName for each UMA payer-data key this API maps. */
export const PAYER_DATA_FIELDS: Record<string, string> = {
  identifier: 'IDENTIFIER',
  name: 'FULL_NAME',
  email: 'EMAIL',
  countryOfResidence: 'COUNTRY_OF_RESIDENCE',
  birthDate: 'BIRTH_DATE',
  nationality: 'NATIONALITY',
  phoneNumber: 'PHONE_NUMBER',
  postalAddress: 'POSTAL_ADDRESS',
  accountIdentifier: 'ACCOUNT_IDENTIFIER',
  taxId: 'TAX_ID',
};
