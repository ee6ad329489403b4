import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { ApiErrors } from '../../openapi/api-errors.js';
import { ExchangeRateListView, ExchangeRatesQuery } from './exchange-rates.dto.js';
import { ExchangeRatesService } from './exchange-rates.service.js';

/** `GET /exchange-rates`. */
@ApiTags('Exchange Rates')
@ApiBasicAuth('BasicAuth')
@Controller('exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  @Get()
  @ApiOperation({ summary: 'Get exchange rates', operationId: 'getExchangeRates' })
  @ApiOkResponse({ type: ExchangeRateListView })
  @ApiErrors(400)
  async list(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query() query: ExchangeRatesQuery,
  ): Promise<ExchangeRateListView> {
    return { data: await this.rates.list(p.platformId, query) };
  }
}
