import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { OutgoingTransactionView } from './outgoing-transaction.render.js';
import { SandboxSendRequest } from './quote.dto.js';
import { QuotesService } from './quotes.service.js';

/** The quotes area's sandbox trigger: funds arriving for a REALTIME_FUNDING quote; mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class QuotesSandboxController {
  constructor(private readonly quotes: QuotesService) {}

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
}
