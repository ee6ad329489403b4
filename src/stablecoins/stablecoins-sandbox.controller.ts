import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { TransactionService } from '../database/transaction.service.js';
import {
  GridOperationsStatusRequest,
  ProviderAccountStatusRequest,
  Stablecoin,
  StablecoinOperation,
  StablecoinProviderAccount,
} from './stablecoin.dto.js';
import { StablecoinOperationsService } from './stablecoin-operations.service.js';
import { StablecoinsService } from './stablecoins.service.js';

/** The sandbox provider's triggers (what Brale would report); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class StablecoinsSandboxController {
  constructor(
    private readonly coins: StablecoinsService,
    private readonly operations: StablecoinOperationsService,
    private readonly tx: TransactionService,
  ) {}

  @ApiOperation({
    summary: "Set a stablecoin's Grid operations status as the operator would",
    operationId: 'sandboxSetStablecoinGridOperationsStatus',
    description:
      "The operator's decision on enablement, in the sandbox (the console's Stablecoins page calls it): PENDING_APPROVAL to ENABLING or DISABLED, ENABLING to ENABLED or DISABLED, ENABLED to DISABLED, DISABLED to ENABLING; anything else 409 INVALID_STATE_TRANSITION. In production only the service's operator moves it (CLI `stablecoin:enablement`).",
  })
  @ApiErrors(404, 409)
  @Post('stablecoins/:stablecoinId/grid-operations-status')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: Stablecoin })
  gridStatus(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
    @Body() body: GridOperationsStatusRequest,
  ): Promise<Stablecoin> {
    return this.tx.run((m) => this.coins.operatorSetGridStatus(m, p.platformId, id, body.gridOperationsStatus));
  }

  @ApiOperation({
    summary: "Simulate the provider receiving an operation's funds",
    operationId: 'sandboxStablecoinFundsReceived',
    description:
      "A wire-funded mint's wire landed, or an external-wallet burn's coins reached the deposit address: PENDING_FUNDING to PENDING_PROVIDER. 409 CONFLICT when the operation is not waiting for funds, or its funds never arrive (magic `...004`).",
  })
  @ApiErrors(404, 409)
  @Post('stablecoin-operations/:stablecoinOperationId/funds-received')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOkResponse({ type: StablecoinOperation })
  fundsReceived(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinOperationId', new IdPipe('StablecoinOperation')) id: string,
  ): Promise<StablecoinOperation> {
    return this.operations.fundsReceived(p.platformId, id);
  }

  @ApiOperation({
    summary: "Simulate the provider reporting a link's credentials",
    operationId: 'sandboxStablecoinProviderAccountStatus',
    description:
      'REVOKED (the credentials were revoked at the provider), INVALID (they no longer verify) or ACTIVE again.',
  })
  @ApiErrors(404)
  @Post('stablecoin-provider-accounts/:stablecoinProviderAccountId/status')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOkResponse({ type: StablecoinProviderAccount })
  status(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinProviderAccountId', new IdPipe('StablecoinProviderAccount')) id: string,
    @Body() body: ProviderAccountStatusRequest,
  ): Promise<StablecoinProviderAccount> {
    return this.coins.setLinkStatus(p.platformId, id, body.status);
  }
}
