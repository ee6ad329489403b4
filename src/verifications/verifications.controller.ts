import { RequiresPort } from '../common/requires-port.js';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { type Page, PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import {
  KycLinkCreateRequest,
  KycLinkResponse,
  ListVerificationsQuery,
  Verification,
  VerificationRequest,
} from './verification.dto.js';
import { VerificationsService } from './verifications.service.js';

const VerificationListResponse = PageOf(Verification, 'VerificationListResponse');

/** The API's base URL as the caller reached it (scheme, host, version prefix): the hosted page's address. */
export function apiBase(req: Request, routeSuffix: string): string {
  const path = req.originalUrl.split('?')[0];
  const at = path.lastIndexOf(routeSuffix);
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}${at >= 0 ? path.slice(0, at) : ''}`;
}

@ApiTags('KYC/KYB Verifications')
@ApiBasicAuth('BasicAuth')
@Controller('verifications')
export class VerificationsController {
  constructor(private readonly verifications: VerificationsService) {}

  @ApiOperation({
    summary: 'Submit customer for verification',
    operationId: 'createVerification',
    description:
      'Answers RESOLVE_ERRORS with `errors` listing what is missing, or IN_PROGRESS (the provider decides; in sandbox POST /sandbox/verifications/{id}/complete).',
  })
  @ApiErrors(410)
  @Post()
  @RequiresPort('KYC_PROVIDER')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOkResponse({ type: Verification })
  submit(@CurrentPlatform() p: PlatformPrincipal, @Body() body: VerificationRequest): Promise<Verification> {
    return this.verifications.submit(p.platformId, body.customerId);
  }

  @ApiOperation({ summary: 'List verifications', operationId: 'listVerifications' })
  @Get()
  @ApiOkResponse({ type: VerificationListResponse })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListVerificationsQuery): Promise<Page<Verification>> {
    return this.verifications.list(p.platformId, query);
  }

  @ApiOperation({ summary: 'Get a verification', operationId: 'getVerification' })
  @Get(':verificationId')
  @ApiOkResponse({ type: Verification })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('verificationId', new IdPipe('Verification')) id: string,
  ): Promise<Verification> {
    return this.verifications.get(p.platformId, id);
  }
}

@ApiTags('KYC/KYB Verifications')
@ApiBasicAuth('BasicAuth')
@Controller('customers')
export class KycLinksController {
  constructor(private readonly verifications: VerificationsService) {}

  @ApiOperation({
    summary: 'Generate a hosted KYC/KYB link for an existing customer',
    operationId: 'createCustomerKycLink',
    description: 'In sandbox the link is a page this service serves, where the customer is approved or rejected.',
  })
  @ApiErrors(410)
  @Post(':customerId/kyc-link')
  @RequiresPort('KYC_PROVIDER')
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiBody({ type: KycLinkCreateRequest, required: false })
  @ApiCreatedResponse({ type: KycLinkResponse })
  create(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('customerId', new IdPipe('Customer')) customerId: string,
    @Body() body: KycLinkCreateRequest,
    @Req() req: Request,
  ): Promise<KycLinkResponse> {
    const base = apiBase(req, `/customers/${req.params.customerId as string}/kyc-link`);
    return this.verifications.createKycLink(p.platformId, customerId, base, body?.redirectUri);
  }
}
