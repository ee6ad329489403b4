import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { IdPipe } from '../../common/id.pipe.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../../openapi/api-errors.js';
import { IncomingTransactionView } from '../transactions/transaction.render.js';
import { ApprovePaymentRequest, RejectPaymentRequest } from './incoming-payments.dto.js';
import { IncomingPaymentsService } from './incoming-payments.service.js';

/** The platform's decision on an incoming payment awaiting it: approve or reject. */
@ApiTags('Transactions')
@ApiBasicAuth('BasicAuth')
@Controller('transactions')
export class IncomingPaymentsController {
  constructor(private readonly incoming: IncomingPaymentsService) {}

  @Post(':transactionId/approve')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Approve a pending incoming payment',
    description:
      "Approves an incoming payment awaiting the platform's decision (after a 202 to its INCOMING_PAYMENT.PENDING webhook), within the approval window.",
    operationId: 'approvePendingPayment',
  })
  @ApiOkResponse({ type: IncomingTransactionView })
  @ApiErrors(400, 404, 409)
  approve(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: ApprovePaymentRequest,
  ): Promise<IncomingTransactionView> {
    return this.incoming.approve(p.platformId, transactionId, body.receiverCustomerInfo);
  }

  @Post(':transactionId/reject')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Reject a pending incoming payment',
    description:
      "Rejects an incoming payment awaiting the platform's decision: FAILED with failureReason COMPLIANCE_REJECTED; the sender is refunded.",
    operationId: 'rejectPendingPayment',
  })
  @ApiOkResponse({ type: IncomingTransactionView })
  @ApiErrors(400, 404, 409)
  reject(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: RejectPaymentRequest,
  ): Promise<IncomingTransactionView> {
    return this.incoming.reject(p.platformId, transactionId, body.reason);
  }
}
