import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { RequiresPort } from '../../common/requires-port.js';
import { ExternalAccount } from '../external-account.dto.js';
import {
  PlaidCreateLinkTokenRequest,
  PlaidCreateLinkTokenResponse,
  PlaidSubmitPublicTokenRequest,
} from './plaid.dto.js';
import { PlaidService } from './plaid.service.js';

/** The official SDK's `plaid.*` (docs/external-accounts.md, "Plaid"). */
@ApiTags('Plaid')
@ApiBasicAuth('BasicAuth')
@Controller('plaid')
@RequiresPort('BANK_LINK_PROVIDER')
export class PlaidController {
  constructor(private readonly plaid: PlaidService) {}

  @Post('link-tokens')
  @RequirePermission('TRANSACT')
  @ApiOperation({
    summary: 'Create a Plaid Link token',
    description:
      "A Link token for one customer, and the callback URL to POST the public token Plaid Link returns. Used once; expires after 4 hours of the platform's clock.",
    operationId: 'createPlaidLinkToken',
  })
  @ApiCreatedResponse({ type: PlaidCreateLinkTokenResponse })
  async createLinkToken(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: PlaidCreateLinkTokenRequest,
    @Req() req: Request,
  ): Promise<PlaidCreateLinkTokenResponse> {
    const token = await this.plaid.createLinkToken(p.platformId, body);
    const base = req.originalUrl.replace(/\/plaid\/link-tokens\/?(\?.*)?$/, '');
    const callbackUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}${base}/plaid/callback/${encodeURIComponent(token.linkToken)}`;
    return { ...token, callbackUrl };
  }

  @Post('callback/:plaidLinkToken')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({
    summary: 'Submit the Plaid public token',
    description:
      "Exchanges the public token with Plaid and creates the customer's USD_ACCOUNT from the account Plaid verified: ACTIVE, beneficiaryVerificationStatus MATCHED.",
    operationId: 'submitPlaidPublicToken',
  })
  @ApiOkResponse({ type: ExternalAccount })
  submitPublicToken(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('plaidLinkToken') linkToken: string,
    @Body() body: PlaidSubmitPublicTokenRequest,
  ): Promise<ExternalAccount> {
    return this.plaid.submitPublicToken(p.platformId, linkToken, body);
  }
}
