import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { SandboxFundRequest } from './ledger-sandbox.dto.js';
import { LedgerSandboxService } from './ledger-sandbox.service.js';

/** The ledger's sandbox trigger (money arriving from outside: an incoming transfer); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class LedgerSandboxController {
  constructor(private readonly sandbox: LedgerSandboxService) {}

  @ApiOperation({ summary: 'Simulate funding an internal account', operationId: 'sandboxFundInternalAccount' })
  @ApiErrors(410)
  @Post('internal-accounts/:accountId/fund')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOkResponse({ type: InternalAccount })
  fund(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('accountId', new IdPipe('InternalAccount')) accountId: string,
    @Body() body: SandboxFundRequest,
  ): Promise<InternalAccount> {
    return this.sandbox.fund(p.platformId, accountId, body.amount);
  }
}
