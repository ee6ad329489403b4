import type { IncomingHttpHeaders } from 'node:http';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { validateBody } from '../common/validate-body.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { WalletRequestChallenge } from './wallet-accounts.dto.js';
import { DelegatedKeyCreateRequest, DelegatedKeyListResponse, DelegatedKeyView } from './delegated-keys.dto.js';
import { DelegatedKeysService, type DelegatedKey } from './delegated-keys.service.js';
import { retryHeaders } from './wallet-signatures.service.js';

/** The reference's delegated keys (Embedded Wallet Auth): create in three legs, list, read, revoke. */
@ApiTags('Embedded Wallet Auth')
@ApiBasicAuth('BasicAuth')
@Controller('auth/delegated-keys')
export class DelegatedKeysController {
  constructor(private readonly keys: DelegatedKeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create a delegated signing key', operationId: 'createDelegatedKey' })
  @ApiBody({ type: DelegatedKeyCreateRequest })
  @ApiResponse({ status: 201, type: DelegatedKeyView, description: 'The third leg: the key ACTIVE' })
  @ApiResponse({ status: 202, type: WalletRequestChallenge, description: 'Stamp payloadToSign and retry (twice)' })
  @ApiErrors(400, 401, 404, 409)
  async create(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: unknown,
    @Headers() headers: IncomingHttpHeaders,
    @Res({ passthrough: true }) res: Response,
  ): Promise<unknown> {
    const { value, errors } = validateBody(DelegatedKeyCreateRequest, body);
    if (errors.length) throw invalidInput(errors);
    const outcome = await this.keys.create(p.platformId, value, body, retryHeaders(headers));
    res.status(outcome.status);
    return outcome.body;
  }

  @Get()
  @ApiOperation({ summary: 'List delegated signing keys', operationId: 'listDelegatedKeys' })
  @ApiQuery({ name: 'accountId', required: false })
  @ApiQuery({ name: 'fundingSourceId', required: false })
  @ApiResponse({ status: 200, type: DelegatedKeyListResponse })
  @ApiErrors(400)
  list(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query('accountId') accountId?: string,
    @Query('fundingSourceId') fundingSourceId?: string,
  ): Promise<{ data: DelegatedKey[] }> {
    return this.keys.list(p.platformId, accountId, fundingSourceId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a delegated signing key', operationId: 'getDelegatedKeyById' })
  @ApiResponse({ status: 200, type: DelegatedKeyView })
  @ApiErrors(404)
  get(@CurrentPlatform() p: PlatformPrincipal, @Param('id') id: string): Promise<DelegatedKey> {
    return this.keys.get(p.platformId, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a delegated signing key', operationId: 'revokeDelegatedKey' })
  @ApiResponse({ status: 204, description: 'Revoked: the key signs nothing again' })
  @ApiErrors(400, 404)
  async revoke(@CurrentPlatform() p: PlatformPrincipal, @Param('id') id: string): Promise<void> {
    await this.keys.revoke(p.platformId, id);
  }
}
