import type { IncomingHttpHeaders } from 'node:http';
import { Body, Controller, Headers, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { validateBody } from '../common/validate-body.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ApiErrors } from '../openapi/api-errors.js';
import {
  InternalAccountExportRequest,
  InternalAccountExportResponse,
  InternalAccountUpdateRequest,
  WalletRequestChallenge,
} from './wallet-accounts.dto.js';
import { WalletExportService } from './wallet-export.service.js';
import { WalletAccountsService } from './wallet-accounts.service.js';
import { retryHeaders } from './wallet-signatures.service.js';
import { isP256Point } from './wallet-stamp.js';
import { fieldError } from '../errors/field-error.js';

/** `PATCH /internal-accounts/{id}`: an embedded wallet's settings, by the 202 then signed retry. */
@ApiTags('Internal Accounts')
@ApiBasicAuth('BasicAuth')
@Controller('internal-accounts')
export class WalletAccountsController {
  constructor(
    private readonly accounts: WalletAccountsService,
    private readonly exports: WalletExportService,
  ) {}

  @Patch(':id')
  @ApiOperation({ summary: 'Update internal account', operationId: 'updateInternalAccount' })
  @ApiHeader({
    name: 'Grid-Wallet-Signature',
    required: false,
    description: 'The signed retry: the stamp over payloadToSign (also Service-Wallet-Signature)',
  })
  @ApiHeader({ name: 'Request-Id', required: false, description: "The signed retry: the 202's requestId" })
  @ApiBody({ type: InternalAccountUpdateRequest })
  @ApiResponse({ status: 200, type: InternalAccount, description: 'The signed retry: the updated account' })
  @ApiResponse({
    status: 202,
    type: WalletRequestChallenge,
    description: 'Stamp payloadToSign with a live session key of the wallet and retry',
  })
  @ApiErrors(400, 401, 404, 409)
  async update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const { value, errors } = validateBody(InternalAccountUpdateRequest, body);
    if (errors.length) throw invalidInput(errors);
    const outcome = await this.accounts.update(p.platformId, id, value, body, retryHeaders(headers));
    res.status(outcome.status);
    return outcome.body;
  }

  @Post(':id/export')
  @HttpCode(200)
  @ApiOperation({ summary: 'Export internal account wallet credentials', operationId: 'exportInternalAccount' })
  @ApiHeader({
    name: 'Grid-Wallet-Signature',
    required: false,
    description: 'The signed retry: the stamp over payloadToSign (also Service-Wallet-Signature)',
  })
  @ApiHeader({ name: 'Request-Id', required: false, description: "The signed retry: the 202's requestId" })
  @ApiBody({ type: InternalAccountExportRequest })
  @ApiResponse({
    status: 200,
    type: InternalAccountExportResponse,
    description: 'The signed retry: the encrypted credentials',
  })
  @ApiResponse({
    status: 202,
    type: WalletRequestChallenge,
    description: 'Stamp payloadToSign (it binds clientPublicKey) and retry',
  })
  @ApiErrors(400, 401, 404, 409)
  async export(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const { value, errors } = validateBody(InternalAccountExportRequest, body);
    if (!errors.length && !isP256Point(value.clientPublicKey))
      errors.push(fieldError('clientPublicKey', 'clientPublicKey must be a point on P-256'));
    if (errors.length) throw invalidInput(errors);
    const outcome = await this.exports.export(
      p.platformId,
      id,
      value.clientPublicKey.toLowerCase(),
      body,
      retryHeaders(headers),
    );
    res.status(outcome.status);
    return outcome.body;
  }
}
