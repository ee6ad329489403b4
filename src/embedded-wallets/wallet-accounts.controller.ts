import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
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
import {
  ApiSignedRetryChallenge,
  ApiSignedRetryHeaders,
  parseBody,
  SignedRetry,
  type SignedRetryHttp,
} from './signed-retry.http.js';
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
  @ApiSignedRetryHeaders()
  @ApiBody({ type: InternalAccountUpdateRequest })
  @ApiResponse({ status: 200, type: InternalAccount, description: 'The signed retry: the updated account' })
  @ApiSignedRetryChallenge(
    WalletRequestChallenge,
    'Stamp payloadToSign with a live session key of the wallet and retry',
  )
  @ApiErrors(400, 401, 404, 409)
  async update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const request = parseBody(InternalAccountUpdateRequest, body);
    return retry.answer(await this.accounts.update(p.platformId, id, request, body, retry.headers));
  }

  @Post(':id/export')
  @HttpCode(200)
  @ApiOperation({ summary: 'Export internal account wallet credentials', operationId: 'exportInternalAccount' })
  @ApiSignedRetryHeaders()
  @ApiBody({ type: InternalAccountExportRequest })
  @ApiResponse({
    status: 200,
    type: InternalAccountExportResponse,
    description: 'The signed retry: the encrypted credentials',
  })
  @ApiSignedRetryChallenge(WalletRequestChallenge, 'Stamp payloadToSign (it binds clientPublicKey) and retry')
  @ApiErrors(400, 401, 404, 409)
  async export(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id') id: string,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const { value, errors } = validateBody(InternalAccountExportRequest, body);
    if (!errors.length && !isP256Point(value.clientPublicKey))
      errors.push(fieldError('clientPublicKey', 'clientPublicKey must be a point on P-256'));
    if (errors.length) throw invalidInput(errors);
    return retry.answer(
      await this.exports.export(p.platformId, id, value.clientPublicKey.toLowerCase(), body, retry.headers),
    );
  }
}
