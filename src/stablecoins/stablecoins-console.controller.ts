import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { GridOperationsStatusRequest, Stablecoin } from './stablecoin.dto.js';
import { StablecoinsService } from './stablecoins.service.js';

/**
 * The console's enablement control (ours): the operator moves a coin through ENABLING, ENABLED,
 * DISABLED, audited like every write. Mounted only with CONSOLE=true and SANDBOX=true: in a
 * sandbox the platform's own operations team plays the service's operator; in production only the
 * service's operator moves it (CLI `stablecoin:enablement`).
 */
@ApiTags('Console')
@ApiBasicAuth('BasicAuth')
@Controller('console/api/stablecoins')
export class StablecoinsConsoleController {
  constructor(
    private readonly coins: StablecoinsService,
    private readonly tx: TransactionService,
  ) {}

  @ApiOperation({
    summary: "Set a stablecoin's Grid operations status (operator)",
    operationId: 'consoleSetStablecoinGridOperationsStatus',
  })
  @ApiErrors(404, 409)
  @Post(':stablecoinId/grid-operations-status')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: Stablecoin })
  set(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
    @Body() body: GridOperationsStatusRequest,
  ): Promise<Stablecoin> {
    return this.tx.run((m) => this.coins.operatorSetGridStatus(m, p.platformId, id, body.gridOperationsStatus));
  }
}
