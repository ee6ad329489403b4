import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { ApiErrors } from '../openapi/api-errors.js';
import {
  DiscoveriesQuery,
  DiscoveryListResponse,
  EstimateCryptoWithdrawalFeeRequest,
  EstimateCryptoWithdrawalFeeResponse,
  ListVaspsQuery,
  VaspListResponse,
} from './directories.dto.js';
import { DirectoriesService } from './directories.service.js';

/** `GET /vasps` (reference listVasps). */
@ApiTags('VASPs')
@ApiBasicAuth('BasicAuth')
@Controller('vasps')
export class VaspsController {
  constructor(private readonly directories: DirectoriesService) {}

  @Get()
  @ApiOperation({
    summary: 'List VASPs',
    description:
      'The directory of Virtual Asset Service Providers recognized for counterparty declarations, by name: the shipped list and the operator’s DIRECTORY_EXTRA_FILE.',
    operationId: 'listVasps',
  })
  @ApiOkResponse({ type: VaspListResponse })
  @ApiErrors(400)
  list(@Query() query: ListVaspsQuery): VaspListResponse {
    return this.directories.listVasps(query);
  }
}

/** `GET /discoveries` (reference getDiscoveries). */
@ApiTags('Discoveries')
@ApiBasicAuth('BasicAuth')
@Controller('discoveries')
export class DiscoveriesController {
  constructor(private readonly directories: DirectoriesService) {}

  @Get()
  @ApiOperation({
    summary: 'List available receiving institution names',
    description:
      'The receiving institutions of a country and currency (all of them without filters). `bankName` is the value to pass as `bankName` when creating an external account.',
    operationId: 'getDiscoveries',
  })
  @ApiOkResponse({ type: DiscoveryListResponse })
  @ApiErrors(400)
  list(@Query() query: DiscoveriesQuery): DiscoveryListResponse {
    return { data: this.directories.discoveries(query) };
  }
}

/** `POST /crypto/estimate-withdrawal-fee` (reference estimateCryptoWithdrawalFee). */
@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('crypto')
export class CryptoEstimatesController {
  constructor(private readonly directories: DirectoriesService) {}

  @Post('estimate-withdrawal-fee')
  @HttpCode(200)
  @RequirePermission('VIEW')
  @ApiOperation({
    summary: 'Estimate crypto withdrawal fee',
    description:
      'The network and application fees of a withdrawal from a crypto internal account, from the fee schedules the deployment ships (and DIRECTORY_EXTRA_FILE). Changes nothing.',
    operationId: 'estimateCryptoWithdrawalFee',
  })
  @ApiOkResponse({ type: EstimateCryptoWithdrawalFeeResponse })
  @ApiErrors(400, 404)
  estimate(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: EstimateCryptoWithdrawalFeeRequest,
  ): Promise<EstimateCryptoWithdrawalFeeResponse> {
    return this.directories.estimateWithdrawalFee(p.platformId, body);
  }
}
