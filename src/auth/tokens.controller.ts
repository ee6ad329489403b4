import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CurrentPlatform, RequirePermission } from './auth.decorators.js';
import type { PlatformPrincipal } from './auth.decorators.js';
import { ApiToken, ApiTokenCreateRequest, ListTokensQuery } from './token.dto.js';
import { TokensService } from './tokens.service.js';

@ApiTags('API Tokens')
@ApiBasicAuth('BasicAuth')
@Controller('tokens')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @ApiOperation({ summary: 'Create a new API token', operationId: 'createToken' })
  @Post()
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiCreatedResponse({ type: ApiToken })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: ApiTokenCreateRequest): Promise<ApiToken> {
    return this.tokens.createForPlatform(p.platformId, body);
  }

  @ApiOperation({ summary: 'List tokens', operationId: 'listTokens' })
  @Get()
  @ApiOkResponse({ type: PageOf(ApiToken, 'TokenListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListTokensQuery) {
    return this.tokens.list(p.platformId, query);
  }

  @ApiOperation({ summary: 'Get API token by ID', operationId: 'getTokenById' })
  @Get(':tokenId')
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('tokenId', new IdPipe('Token')) tokenId: string,
  ): Promise<ApiToken> {
    return this.tokens.get(p.platformId, tokenId);
  }

  @ApiOperation({ summary: 'Delete API token by ID', operationId: 'deleteTokenById' })
  @Delete(':tokenId')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  async revoke(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('tokenId', new IdPipe('Token')) tokenId: string,
  ): Promise<void> {
    await this.tokens.revoke(p.platformId, tokenId);
  }
}
