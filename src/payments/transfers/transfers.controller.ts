import { Body, Controller, Header, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../../openapi/api-errors.js';
import { TRANSACTION_ONE_OF } from '../transactions/transaction-schema.js';
import { IncomingTransactionView, OutgoingTransactionView } from '../transactions/transaction.render.js';
import type { TransactionView } from '../transactions/transaction.render.js';
import { TransferInRequest, TransferOutRequest } from './transfers.dto.js';
import { TransfersService } from './transfers.service.js';

/** RFC 9745: deprecated since 2026-01-01 (the spec deprecates the same-currency routes). */
const DEPRECATED_SINCE = '@1767225600';

/** The spec's deprecated same-currency transfers (served, with a `Deprecation` header). */
@ApiTags('Same-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@ApiExtraModels(IncomingTransactionView, OutgoingTransactionView)
@Controller()
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post('transfer-in')
  @RequirePermission('TRANSACT')
  @Idempotent()
  @Header('Deprecation', DEPRECATED_SINCE)
  @ApiOperation({
    summary: 'Create a transfer-in request (deprecated: use quotes)',
    operationId: 'createTransferIn',
    deprecated: true,
  })
  @ApiCreatedResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 403, 404)
  transferIn(@CurrentPlatform() p: PlatformPrincipal, @Body() body: TransferInRequest): Promise<TransactionView> {
    return this.transfers.transferIn(p.platformId, body);
  }

  @Post('transfer-out')
  @RequirePermission('TRANSACT')
  @Idempotent()
  @Header('Deprecation', DEPRECATED_SINCE)
  @ApiOperation({
    summary: 'Create a transfer-out request (deprecated: use quotes)',
    operationId: 'createTransferOut',
    deprecated: true,
  })
  @ApiCreatedResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 403, 404)
  transferOut(@CurrentPlatform() p: PlatformPrincipal, @Body() body: TransferOutRequest): Promise<TransactionView> {
    return this.transfers.transferOut(p.platformId, body);
  }
}
