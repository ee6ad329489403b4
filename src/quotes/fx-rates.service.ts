import { Injectable } from '@nestjs/common';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { ApiError } from '../errors/api-error.js';

/** A rate as read from the table: major units of `to` per major unit of `from`. */
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
 * Exchange rates for quotes, from the rate table in config (FX_RATES, USD-based; cross rates go
 * through USD). A rate is cached per currency pair for FX_RATE_CACHE_SECONDS (default 300, the
 * spec's "about 5 minutes"), so quotes priced within that window share one rate, as they would
 * with a live feed plugged in here.
 */
@Injectable()
export class FxRatesService {
  private readonly table: Map<string, number>;
  private readonly cache = new Map<string, FxRate>();
  private readonly ttlMs: number;

  constructor(
    config: AppConfig,
    private readonly clock: RealClock,
  ) {
    this.table = parseRateTable(config.FX_RATES);
    this.ttlMs = config.FX_RATE_CACHE_SECONDS * 1000;
  }

  /** The rate from one currency to another (1 for the same currency), or 400 QUOTE_RATE_UNAVAILABLE. */
  rate(from: string, to: string): FxRate {
    const now = this.clock.now();
    const key = `${from}/${to}`;
    const cached = this.cache.get(key);
    if (cached && now.getTime() - cached.readAt.getTime() < this.ttlMs) return cached;
    const perUsdFrom = this.table.get(from);
    const perUsdTo = this.table.get(to);
    if (from !== to && (perUsdFrom === undefined || perUsdTo === undefined)) {
      throw new ApiError('QUOTE_RATE_UNAVAILABLE', `No exchange rate from ${from} to ${to}`, {
        details: { sendingCurrency: from, receivingCurrency: to },
      });
    }
    const multiplier = from === to ? 1 : perUsdTo! / perUsdFrom!;
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
