var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { ApiError } from '../errors/api-error.js';
/** Parses FX_RATES (`EUR=0.92,GBP=0.79`: units per 1 USD) into a map; USD is 1. */
export function parseRateTable(spec) {
    const table = new Map([['USD', 1]]);
    for (const pair of spec.split(',')) {
        const [code, rate] = pair.split('=');
        if (code && Number(rate) > 0)
            table.set(code, Number(rate));
    }
    return table;
}
/**
 * Exchange rates for quotes, from the rate table in config (FX_RATES, USD-based; cross rates go
 * through USD). A rate is cached per currency pair for FX_RATE_CACHE_SECONDS (default 300, the
 * spec's "about 5 minutes"), so quotes priced within that window share one rate, as they would
 * with a live feed plugged in here.
 */
let FxRatesService = class FxRatesService {
    clock;
    table;
    cache = new Map();
    ttlMs;
    constructor(config, clock) {
        this.clock = clock;
        this.table = parseRateTable(config.FX_RATES);
        this.ttlMs = config.FX_RATE_CACHE_SECONDS * 1000;
    }
    /** The rate from one currency to another (1 for the same currency), or 400 QUOTE_RATE_UNAVAILABLE. */
    rate(from, to) {
        const now = this.clock.now();
        const key = `${from}/${to}`;
        const cached = this.cache.get(key);
        if (cached && now.getTime() - cached.readAt.getTime() < this.ttlMs)
            return cached;
        const perUsdFrom = this.table.get(from);
        const perUsdTo = this.table.get(to);
        if (from !== to && (perUsdFrom === undefined || perUsdTo === undefined)) {
            throw new ApiError('QUOTE_RATE_UNAVAILABLE', `No exchange rate from ${from} to ${to}`, {
                details: { sendingCurrency: from, receivingCurrency: to },
            });
        }
        const multiplier = from === to ? 1 : perUsdTo / perUsdFrom;
        const rate = { from, to, multiplier, readAt: now };
        this.cache.set(key, rate);
        return rate;
    }
    /** Minor units of `from` as minor units of `to` (unrounded), for policy limits in another currency. */
    convert = (amount, from, to) => {
        if (from === to)
            return amount;
        return amount * this.rate(from, to).multiplier * 10 ** (currencyInfo(to).decimals - currencyInfo(from).decimals);
    };
};
FxRatesService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        Clock])
], FxRatesService);
export { FxRatesService };
//# sourceMappingURL=fx-rates.service.js.map