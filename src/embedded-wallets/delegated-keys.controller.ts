import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { WalletRequestChallenge } from './wallet-accounts.dto.js';
import { DelegatedKeyCreateRequest, DelegatedKeyListResponse, DelegatedKeyView } from './delegated-keys.dto.js';
import { DelegatedKeysService, type DelegatedKey } from './delegated-keys.service.js';
import { ApiSignedRetryChallenge, parseBody, SignedRetry, type SignedRetryHttp } from './signed-retry.http.js';

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
  @ApiSignedRetryChallenge(WalletRequestChallenge, 'Stamp payloadToSign and retry (twice)')
  @ApiErrors(400, 401, 404, 409)
  async create(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: unknown,
    @SignedRetry() retry: SignedRetryHttp,
  ): Promise<unknown> {
    const request = parseBody(DelegatedKeyCreateRequest, body);
    return retry.answer(await this.keys.create(p.platformId, request, body, retry.headers));
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
