import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import type { CustomerView } from './customer.dto.js';
import { SandboxKycRequest } from './customers-sandbox.dto.js';
import { CUSTOMER } from './customers.controller.js';
import { CustomersService } from './customers.service.js';

/** The customers area's sandbox trigger (a KYC provider); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox')
export class CustomersSandboxController {
  constructor(private readonly customers: CustomersService) {}

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
}
