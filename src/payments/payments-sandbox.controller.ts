import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { IncomingPaymentsService } from './incoming/incoming-payments.service.js';
import { IncomingTransactionView, OutgoingTransactionView } from './transactions/transaction.render.js';
import { SandboxSendRequest } from './quotes/quote.dto.js';
import { QuotesService } from './quotes/quotes.service.js';
import { SandboxUmaReceiveRequest } from './payments-sandbox.dto.js';

/**
 * The quotes area's sandbox triggers: funds arriving for a REALTIME_FUNDING quote, an UMA payment
 * from a sandbox sender; mounted only when SANDBOX=true.
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class PaymentsSandboxController {
  constructor(
    private readonly quotes: QuotesService,
    private readonly incoming: IncomingPaymentsService,
  ) {}

  @Post('send')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate sending funds',
    description:
      "The funds of a REALTIME_FUNDING quote arrive as its paymentInstructions say; the quote's payment proceeds.",
    operationId: 'sandboxSend',
  })
  @ApiOkResponse({ type: OutgoingTransactionView })
  @ApiErrors(400, 403, 404, 409)
  send(@CurrentPlatform() p: PlatformPrincipal, @Body() body: SandboxSendRequest): Promise<OutgoingTransactionView> {
    return this.quotes.sendFunds({ platformId: p.platformId }, body);
  }

  /** Not @Idempotent: the payment commits before its approval webhook goes out (every call is a new payment). */
  @Post('uma/receive')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({
    summary: 'Simulate payment send to test receiving an UMA payment',
    description:
      "A sandbox sender pays one of the platform's customers: the platform's INCOMING_PAYMENT.PENDING webhook decides as for any incoming payment. Senders: `$success.<currency>@sandbox.grid.uma.money` settles on approval, `$fail.<currency>@…` fails after approval (QUOTE_EXECUTION_FAILED), `$slow.<currency>@…` is PROCESSING (INCOMING_PAYMENT.PROCESSING) until an hour of the platform's time after approval.",
    operationId: 'sandboxReceive',
  })
  @ApiOkResponse({ type: IncomingTransactionView })
  @ApiErrors(400, 403, 404)
  receiveUma(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: SandboxUmaReceiveRequest,
  ): Promise<IncomingTransactionView> {
    return this.incoming.sandboxReceive(p.platformId, body);
  }
}
