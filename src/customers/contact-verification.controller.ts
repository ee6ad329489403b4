import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { ContactVerificationService } from './contact-verification.service.js';
import { ContactVerificationConfirmRequest } from './customer.dto.js';
import type { CustomerView } from './customer.dto.js';
import { CUSTOMER } from './customers.controller.js';

/**
 * Contact verification (the reference's "Contact Verification" operations): a code to the
 * customer's email or phone, then its confirmation. 409 for a customer whose region requires no
 * such verification, or whose channel is already VERIFIED (docs/customers.md#contact-verification).
 */
@ApiTags('Contact Verification')
@ApiBasicAuth('BasicAuth')
@Controller('customers')
export class ContactVerificationController {
  constructor(private readonly verification: ContactVerificationService) {}

  @Post(':customerId/verify-email')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperation({
    summary: 'Send an email verification code to a customer',
    operationId: 'sendCustomerEmailVerification',
  })
  @ApiNoContentResponse({ description: 'Verification code sent (in sandbox: nothing sent, the code is 123456)' })
  @ApiErrors(404, 409, 429)
  sendEmail(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
  ): Promise<void> {
    return this.verification.send(p.platformId, customerId, 'EMAIL');
  }

  @Post(':customerId/verify-email/confirm')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperation({
    summary: "Confirm a customer's email verification code",
    operationId: 'confirmCustomerEmailVerification',
  })
  @ApiOkResponse({ schema: CUSTOMER, description: 'Email verified' })
  @ApiErrors(400, 404, 409)
  confirmEmail(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: ContactVerificationConfirmRequest,
  ): Promise<CustomerView> {
    return this.verification.confirm(p.platformId, customerId, 'EMAIL', body.code);
  }

  @Post(':customerId/verify-phone')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperation({
    summary: 'Send a phone verification code to a customer',
    operationId: 'sendCustomerPhoneVerification',
  })
  @ApiNoContentResponse({ description: 'Verification code sent (in sandbox: nothing sent, the code is 123456)' })
  @ApiErrors(404, 409, 429)
  sendPhone(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
  ): Promise<void> {
    return this.verification.send(p.platformId, customerId, 'PHONE');
  }

  @Post(':customerId/verify-phone/confirm')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperation({
    summary: "Confirm a customer's phone verification code",
    operationId: 'confirmCustomerPhoneVerification',
  })
  @ApiOkResponse({ schema: CUSTOMER, description: 'Phone verified' })
  @ApiErrors(400, 404, 409)
  confirmPhone(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: ContactVerificationConfirmRequest,
  ): Promise<CustomerView> {
    return this.verification.confirm(p.platformId, customerId, 'PHONE', body.code);
  }
}
