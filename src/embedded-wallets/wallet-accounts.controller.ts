import type { IncomingHttpHeaders } from 'node:http';
import { Body, Controller, Headers, Param, Patch, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { validateBody } from '../common/validate-body.js';
import { InternalAccount } from '../customers/internal-account.dto.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { InternalAccountUpdateRequest, WalletRequestChallenge } from './wallet-accounts.dto.js';
import { WalletAccountsService } from './wallet-accounts.service.js';
import { retryHeaders } from './wallet-signatures.service.js';

/** `PATCH /internal-accounts/{id}`: an embedded wallet's settings, by the 202 then signed retry. */
@ApiTags('Internal Accounts')
@ApiBasicAuth('BasicAuth')
@Controller('internal-accounts')
export class WalletAccountsController {
  constructor(private readonly accounts: WalletAccountsService) {}

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
}
