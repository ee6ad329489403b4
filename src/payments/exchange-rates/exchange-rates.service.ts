import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { currencyInfo } from '../../customers/currencies.js';
import { ApiError } from '../../errors/api-error.js';
import { PlatformConfigService, platformFeeFor } from '../../platform-config/platform-config.service.js';
import { TransactionService } from '../../database/transaction.service.js';
import { FxRatesService } from './fx-rates.service.js';
import { priceQuote } from './quote-pricing.js';
import type { ExchangeRatesQuery, ExchangeRateView } from './exchange-rates.dto.js';

/** The rail the rates list names for a destination currency (the reference shows one per corridor). */
const RAIL_BY_CURRENCY: Record<string, string> = {
  USD: 'ACH',
  EUR: 'SEPA_INSTANT',
  GBP: 'FASTER_PAYMENTS',
  MXN: 'SPEI',
  BRL: 'PIX',
  INR: 'UPI',
  PHP: 'INSTAPAY',
  CAD: 'BANK_TRANSFER',
  NGN: 'BANK_TRANSFER',
  JPY: 'BANK_TRANSFER',
};

/**
 * `GET /exchange-rates`: every corridor from the platform's supported currencies (or
 * `sourceCurrency`) to the others (or `destinationCurrency`), priced for `sendingAmount` (default
 * 10000) exactly as a quote would be now: the same cached rate (FxRatesService) and the same fees,
 * the platform's configured ones (`feeConfigs`) included: `fees.fixed` is the service's fixed fee
 * plus the platform's, `fees.total` every fee on `sendingAmount`.
 */
@Injectable()
export class ExchangeRatesService {
  constructor(
    private readonly tx: TransactionService,
    private readonly config: AppConfig,
    private readonly rates: FxRatesService,
    private readonly platformConfig: PlatformConfigService,
  ) {}

  async list(platformId: string, query: ExchangeRatesQuery): Promise<ExchangeRateView[]> {
    this.rates.assertAvailable();
    const known = this.rates.currencies();
    for (const code of [query.sourceCurrency, ...(query.destinationCurrency ?? [])])
      if (code !== undefined && !known.includes(code))
        throw new ApiError('INVALID_CURRENCY', `${code} is not a currency this service has rates for`, {
          details: { currency: code },
        });
    const config = await this.platformConfig.load(this.tx.manager, platformId);
    const limits = new Map(config.supportedCurrencies.map((c) => [c.currencyCode, c]));
    const sources = query.sourceCurrency ? [query.sourceCurrency] : [...limits.keys()].filter((c) => known.includes(c));
    const destinations = query.destinationCurrency?.length ? query.destinationCurrency : known;
    const amount = query.sendingAmount ?? 10_000;
    const out: ExchangeRateView[] = [];
    for (const from of sources) {
      // Every corridor is cross-currency: the service's fee plus the platform's configured one.
      const platformFee = platformFeeFor(config.feeConfigs, 'CROSS_CURRENCY_TRANSACTION', from);
      const fixedFees = this.config.QUOTE_FIXED_FEE + platformFee.fixed;
      for (const to of destinations) {
        if (from === to) continue;
        let multiplier: number;
        let readAt: Date;
        try {
          ({ multiplier, readAt } = this.rates.rate(from, to));
        } catch {
          continue;
        }
        const sending = currencyInfo(from);
        const receiving = currencyInfo(to);
        const price =
          amount > 0
            ? priceQuote({
                side: 'SENDING',
                amount,
                sendingDecimals: sending.decimals,
                receivingDecimals: receiving.decimals,
                multiplier,
                crossCurrency: true,
                fixedFee: this.config.QUOTE_FIXED_FEE,
                variableFeeRate: this.config.QUOTE_VARIABLE_FEE_RATE,
                platformFixedFee: platformFee.fixed,
                platformVariableFeeRate: platformFee.variableRate,
              })
            : null;
        const limit = limits.get(from);
        out.push({
          sourceCurrency: sending,
          sendingAmount: amount,
          minSendingAmount: limit?.minAmount ?? 1,
          maxSendingAmount: limit?.maxAmount ?? 0,
          destinationCurrency: receiving,
          destinationPaymentRail: RAIL_BY_CURRENCY[to] ?? 'BANK_TRANSFER',
          receivingAmount: price?.totalReceivingAmount ?? 0,
          exchangeRate: multiplier,
          fees: { fixed: fixedFees, total: price?.feesIncluded ?? fixedFees },
          updatedAt: readAt.toISOString(),
        });
      }
    }
    return out;
  }
}
