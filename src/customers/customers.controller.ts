import type { IncomingHttpHeaders } from 'node:http';
import type { Response } from 'express';
import { Body, Controller, Delete, Get, Headers, Param, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import type { Page } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  BusinessCustomer,
  BusinessCustomerCreateRequest,
  BusinessCustomerUpdateRequest,
  EndUserTerms,
  IndividualCustomer,
  IndividualCustomerCreateRequest,
  IndividualCustomerUpdateRequest,
  ListCustomersQuery,
} from './customer.dto.js';
import type { CustomerView } from './customer.dto.js';
import { CustomersService } from './customers.service.js';

const oneOf = (individual: new () => object, business: new () => object) => ({
  oneOf: [{ $ref: getSchemaPath(individual) }, { $ref: getSchemaPath(business) }],
  discriminator: {
    propertyName: 'customerType',
    mapping: { INDIVIDUAL: getSchemaPath(individual), BUSINESS: getSchemaPath(business) },
  },
});
/** A customer response: individual or business, by `customerType`. */
export const CUSTOMER = oneOf(IndividualCustomer, BusinessCustomer);

@ApiTags('Customers')
@ApiBasicAuth('BasicAuth')
@ApiExtraModels(
  IndividualCustomer,
  BusinessCustomer,
  IndividualCustomerCreateRequest,
  BusinessCustomerCreateRequest,
  IndividualCustomerUpdateRequest,
  BusinessCustomerUpdateRequest,
)
@Controller('customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  /** The body is discriminated by `customerType`: the service validates the matching variant. */
  @ApiOperation({ summary: 'Add a new customer', operationId: 'createCustomer' })
  @ApiErrors(409)
  @Post()
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiBody({ schema: oneOf(IndividualCustomerCreateRequest, BusinessCustomerCreateRequest) })
  @ApiResponse({ status: 201, schema: CUSTOMER })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: Record<string, unknown>): Promise<CustomerView> {
    return this.customers.create(p.platformId, body);
  }

  @Get()
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['data', 'hasMore', 'totalCount'],
      properties: {
        data: { type: 'array', items: CUSTOMER },
        hasMore: { type: 'boolean' },
        nextCursor: { type: 'string' },
        totalCount: { type: 'integer' },
      },
    },
  })
  @ApiOperation({ summary: 'List customers', operationId: 'listCustomers' })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListCustomersQuery): Promise<Page<CustomerView>> {
    return this.customers.list(p.platformId, query);
  }

  /** A literal segment: route-order.ts sorts it before `:customerId`, which would answer 400 on it. */
  @ApiOperation({ summary: 'Get the current Grid End User Terms', operationId: 'getEndUserTerms' })
  @Get('end-user-terms')
  @ApiOkResponse({ type: EndUserTerms })
  endUserTerms(): EndUserTerms {
    return this.customers.endUserTerms();
  }

  @ApiOperation({ summary: 'Get customer by ID', operationId: 'getCustomerById' })
  @Get(':customerId')
  @ApiOkResponse({ schema: CUSTOMER })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
  ): Promise<CustomerView> {
    return this.customers.get(p.platformId, customerId);
  }

  @ApiOperation({ summary: 'Update customer by ID', operationId: 'updateCustomerById' })
  @ApiErrors(401, 409, 410)
  @Patch(':customerId')
  @RequirePermission('MANAGE')
  @ApiBody({ schema: oneOf(IndividualCustomerUpdateRequest, BusinessCustomerUpdateRequest) })
  @ApiOkResponse({ schema: CUSTOMER })
  @ApiResponse({
    status: 202,
    description:
      "An email or phone tied to the customer's embedded wallet OTP credential: {payloadToSign, requestId, expiresAt}; stamp it with a live wallet session key and retry with Grid-Wallet-Signature and Request-Id",
  })
  async update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: Record<string, unknown>,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const outcome = await this.customers.update(p.platformId, customerId, body, headers);
    if ('challenge' in outcome) {
      // An email or phone tied to an embedded wallet's OTP credential: sign, then retry (docs/embedded-wallets.md).
      res.status(202);
      return outcome.challenge;
    }
    return outcome;
  }

  /** Soft delete; answers 200 with the deleted customer (reference), 410 CUSTOMER_DELETED the second time. */
  @ApiOperation({ summary: 'Delete customer by ID', operationId: 'deleteCustomerById' })
  @ApiErrors(410)
  @Delete(':customerId')
  @RequirePermission('MANAGE')
  @ApiOkResponse({ schema: CUSTOMER })
  remove(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
  ): Promise<CustomerView> {
    return this.customers.remove(p.platformId, customerId);
  }
}
