import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import type { CustomerView } from './customer.dto.js';
import { CustomersSandboxService } from './customers-sandbox.service.js';
import { SandboxFundRequest, SandboxKycRequest } from './customers-sandbox.dto.js';
import { CUSTOMER } from './customers.controller.js';
import { CustomersService } from './customers.service.js';
import { InternalAccount } from './internal-account.dto.js';

/** The customers area's sandbox triggers (a KYC provider, an incoming transfer); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class CustomersSandboxController {
  constructor(
    private readonly customers: CustomersService,
    private readonly sandbox: CustomersSandboxService,
  ) {}

  @ApiOperation({ summary: "Set a customer's KYC status", operationId: 'sandboxSetCustomerKycStatus' })
  @ApiErrors(410)
  @Post('customers/:customerId/kyc')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOkResponse({ schema: CUSTOMER })
  setKyc(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: SandboxKycRequest,
  ): Promise<CustomerView> {
    return this.customers.setKycStatus(p.platformId, customerId, body.kycStatus);
  }

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
