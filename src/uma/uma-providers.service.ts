import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { UmaRates } from './uma-currencies.js';
import { UmaKeysService } from './uma-keys.service.js';
import type { UmaProvider, UmaProvidersQuery } from './uma.dto.js';

interface KnownRow {
  domain: string;
  response: { supportedCurrencies?: Array<{ currency: { code: string } }> };
}

/**
 * `GET /uma-providers`: the counterparties this deployment knows: itself, and every domain the
 * platform has looked up successfully (with the currencies its latest lookup offered).
 */
@Injectable()
export class UmaProvidersService {
  private readonly rates: UmaRates;
  private readonly currencies: string[];

  constructor(
    config: AppConfig,
    private readonly keys: UmaKeysService,
    private readonly tx: TransactionService,
  ) {
    this.rates = new UmaRates(config.FX_RATES);
    this.currencies = config.FX_RATES.split(',')
      .map((p) => p.split('=')[0])
      .concat('USD')
      .filter((c) => c !== 'BTC' && this.rates.msatsPerMinorUnit(c) !== null)
      .sort();
  }

  async list(platformId: string, query: UmaProvidersQuery) {
    const self = this.keys.domain();
    const rows = await this.tx.query<KnownRow[]>(
      `SELECT DISTINCT ON (lower(split_part(receiver_uma_address, '@', 2)))
              lower(split_part(receiver_uma_address, '@', 2)) AS domain, response
         FROM uma_lookups
        WHERE platform_id = $1 AND receiver_uma_address IS NOT NULL
        ORDER BY lower(split_part(receiver_uma_address, '@', 2)), created_at DESC`,
      [platformId],
    );
    const currency = (code: string) => {
      const c = currencyInfo(code);
      return { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals };
    };
    const providers: UmaProvider[] = [
      {
        name: 'This deployment',
        supportedRegions: [],
        domain: self,
        supportedCurrencies: this.currencies.map(currency),
        allowListStatus: true,
      },
      ...rows
        .filter((r) => r.domain !== self)
        .map((r) => ({
          name: r.domain,
          supportedRegions: [],
          domain: r.domain,
          supportedCurrencies: (r.response.supportedCurrencies ?? []).map((c) => currency(c.currency.code)),
          allowListStatus: true,
        })),
    ];
    let list = providers.filter(
      (p) => !query.currencyCode || p.supportedCurrencies.some((c) => c.code === query.currencyCode),
    );
    if (query.countryCode) list = list.filter((p) => p.supportedRegions.includes(query.countryCode!));
    if (query.sortOrder === 'asc') list = [...list].reverse();
    const offset = query.cursor === undefined ? 0 : Number.parseInt(query.cursor, 10);
    if (
      !Number.isSafeInteger(offset) ||
      offset < 0 ||
      (String(offset) !== query.cursor && query.cursor !== undefined)
    ) {
      throw new ApiError('INVALID_INPUT', 'cursor is not a cursor this list returned', {
        details: { errors: [{ field: 'cursor', message: 'unknown cursor' }] },
      });
    }
    const limit = query.limit ?? 20;
    const data = list.slice(offset, offset + limit);
    const hasMore = offset + limit < list.length;
    return { data, hasMore, ...(hasMore ? { nextCursor: String(offset + limit) } : {}), totalCount: list.length };
  }
}
