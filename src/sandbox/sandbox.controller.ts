import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import type { CustomerView } from '../customers/customer.dto.js';
import { CustomersService } from '../customers/customers.service.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { SandboxFundRequest, SandboxKycRequest } from './sandbox.dto.js';
import { SandboxService } from './sandbox.service.js';

/** Mounted only when SANDBOX=true (AppModule.forRoot). */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class SandboxController {
  constructor(
    private readonly customers: CustomersService,
    private readonly sandbox: SandboxService,
  ) {}

  @Post('customers/:customerId/kyc')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  setKyc(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: SandboxKycRequest,
  ): Promise<CustomerView> {
    return this.customers.setKycStatus(p.platformId, customerId, body.kycStatus);
  }

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
