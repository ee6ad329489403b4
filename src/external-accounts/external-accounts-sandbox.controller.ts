import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { EnumField } from '../common/validation.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ExternalAccount } from './external-account.dto.js';
import { EXTERNAL_ACCOUNT_STATUSES } from './external-account.entity.js';
import type { ExternalAccountStatus } from './external-account.entity.js';
import { ExternalAccountsService } from './external-accounts.service.js';

export class SandboxExternalAccountStatusRequest {
  @EnumField(EXTERNAL_ACCOUNT_STATUSES, { description: 'The status to set, as a verification provider would' })
  status: ExternalAccountStatus;
}

/** The external accounts area's sandbox trigger (ownership or review outcome); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/external-accounts')
export class ExternalAccountsSandboxController {
  constructor(private readonly accounts: ExternalAccountsService) {}

  @ApiOperation({ summary: "Set an external account's status", operationId: 'sandboxSetExternalAccountStatus' })
  @Post(':externalAccountId/status')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOkResponse({ type: ExternalAccount })
  setStatus(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
    @Body() body: SandboxExternalAccountStatusRequest,
  ): Promise<ExternalAccount> {
    return this.accounts.setStatus(p.platformId, id, body.status);
  }
}
