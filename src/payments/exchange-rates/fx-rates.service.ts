import { Injectable } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { currencyInfo } from '../../customers/currencies.js';
import { ApiError } from '../../errors/api-error.js';

/** A rate as read from the provider: major units of `to` per major unit of `from`. */
export interface FxRate {
  from: string;
  to: string;
  multiplier: number;
  /** When it was read; reused until FX_RATE_CACHE_SECONDS later. */
  readAt: Date;
}

/** Parses FX_RATES (`EUR=0.92,GBP=0.79`: units per 1 USD) into a map; USD is 1. */
export function parseRateTable(spec: string): Map<string, number> {
  const table = new Map<string, number>([['USD', 1]]);
  for (const pair of spec.split(',')) {
    const [code, rate] = pair.split('=');
    if (code && Number(rate) > 0) table.set(code, Number(rate));
  }
  return table;
}

/**
 * Where rates come from (the RATE_SOURCE port, docs/production.md#exchange-rates): the configured
 * table (`static`, `sandbox`), the ECB's daily reference rates (`ecb`, rate-source.ts) or nothing
 * (`none`). `multiplier` answers major units of `to` per major unit of `from`, or null when the
 * source has no rate for the pair; `assertUsable` refuses when the source cannot price at all right
 * now (503 SERVICE_UNAVAILABLE (details.notConfigured: RATE_SOURCE), SERVICE_UNAVAILABLE (details.maxAgeSeconds, details.asOf)); `version` changes when the set does.
 */
export abstract class RateProvider {
  abstract currencies(): string[];
  abstract multiplier(from: string, to: string): number | null;

  assertUsable(_now: Date): void {}

  version(): string {
    return 'static';
  }
}

/** The config table (FX_RATES, USD-based; cross rates go through USD). */
@Injectable()
export class ConfigRateProvider extends RateProvider {
  private readonly table: Map<string, number>;

  constructor(config: AppConfig) {
    super();
    this.table = parseRateTable(config.FX_RATES);
  }

  currencies(): string[] {
    return [...this.table.keys()];
  }

  multiplier(from: string, to: string): number | null {
    if (from === to) return 1;
    const perUsdFrom = this.table.get(from);
    const perUsdTo = this.table.get(to);
    if (perUsdFrom === undefined || perUsdTo === undefined) return null;
    return perUsdTo / perUsdFrom;
  }
}

/**
 * Exchange rates for quotes and GET /exchange-rates, from the RateProvider. A rate is cached per
 * currency pair for FX_RATE_CACHE_SECONDS (default 300, the spec's "about 5 minutes"), so quotes
 * priced within that window share one rate, as they would with a live feed.
 */
@Injectable()
export class FxRatesService {
  private readonly cache = new Map<string, FxRate>();
  private readonly ttlMs: number;

  constructor(
    config: AppConfig,
    private readonly clock: RealClock,
    private readonly provider: RateProvider,
  ) {
    this.ttlMs = config.FX_RATE_CACHE_SECONDS * 1000;
  }

  currencies(): string[] {
    return this.provider.currencies();
  }

  /** 503 SERVICE_UNAVAILABLE (details.notConfigured: RATE_SOURCE) / SERVICE_UNAVAILABLE (details.maxAgeSeconds, details.asOf) when the source cannot price now. */
  assertAvailable(): void {
    this.provider.assertUsable(this.clock.now());
  }

  /**
   * The rate from one currency to another: 1 for the same currency (no source needed); otherwise
   * 503 when the source cannot price now (assertAvailable), else 400 QUOTE_RATE_UNAVAILABLE for a
   * pair it has no rate for.
   */
  rate(from: string, to: string): FxRate {
    const now = this.clock.now();
    if (from === to) return { from, to, multiplier: 1, readAt: now };
    this.provider.assertUsable(now);
    const key = `${this.provider.version()}:${from}/${to}`;
    const cached = this.cache.get(key);
    if (cached && now.getTime() - cached.readAt.getTime() < this.ttlMs && now >= cached.readAt) return cached;
    const multiplier = this.provider.multiplier(from, to);
    if (multiplier === null) {
      throw new ApiError('QUOTE_RATE_UNAVAILABLE', `No exchange rate from ${from} to ${to}`, {
        details: { sendingCurrency: from, receivingCurrency: to },
      });
    }
    const rate = { from, to, multiplier, readAt: now };
    this.cache.set(key, rate);
    return rate;
  }

  /** Minor units of `from` as minor units of `to` (unrounded), for policy limits in another currency. */
  convert = (amount: number, from: string, to: string): number => {
    if (from === to) return amount;
    return amount * this.rate(from, to).multiplier * 10 ** (currencyInfo(to).decimals - currencyInfo(from).decimals);
  };
}
