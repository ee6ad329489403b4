import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { RequiresPort } from '../common/requires-port.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  ListOperationsQuery,
  ListProviderAccountsQuery,
  ListStablecoinsQuery,
  Stablecoin,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  StablecoinOperation,
  StablecoinProviderAccount,
  StablecoinProviderAccountLinkRequest,
  StablecoinRegisterRequest,
} from './stablecoin.dto.js';
import { StablecoinOperationsService } from './stablecoin-operations.service.js';
import { StablecoinsService } from './stablecoins.service.js';

const ProviderAccountList = PageOf(StablecoinProviderAccount, 'StablecoinProviderAccountListResponse');
const StablecoinList = PageOf(Stablecoin, 'StablecoinListResponse');
const OperationList = PageOf(StablecoinOperation, 'StablecoinOperationListResponse');

/** `/stablecoin-provider-accounts` (reference tag Stablecoins): link, list and read provider account links. */
@ApiTags('Stablecoins')
@ApiBasicAuth('BasicAuth')
@Controller('stablecoin-provider-accounts')
export class StablecoinProviderAccountsController {
  constructor(private readonly coins: StablecoinsService) {}

  @Post()
  @RequiresPort('STABLECOIN_PROVIDER')
  @RequirePermission('MANAGE')
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Link a stablecoin provider account', operationId: 'linkStablecoinProviderAccount' })
  @ApiBody({ type: StablecoinProviderAccountLinkRequest })
  @ApiCreatedResponse({ type: StablecoinProviderAccount })
  @ApiBadRequestResponse({ description: 'INVALID_INPUT, STABLECOIN_PROVIDER_ACCOUNT_INVALID' })
  @ApiConflictResponse({ description: 'CONFLICT: the provider account is already linked (ACTIVE)' })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE: the provider cannot be reached' })
  link(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<StablecoinProviderAccount> {
    return this.coins.link(p.platformId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List stablecoin provider account links', operationId: 'listStablecoinProviderAccounts' })
  @ApiOkResponse({ type: ProviderAccountList })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListProviderAccountsQuery) {
    return this.coins.listLinks(p.platformId, query);
  }

  @Get(':stablecoinProviderAccountId')
  @ApiOperation({ summary: 'Get a stablecoin provider account link', operationId: 'getStablecoinProviderAccount' })
  @ApiOkResponse({ type: StablecoinProviderAccount })
  @ApiNotFoundResponse({ description: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND' })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinProviderAccountId', new IdPipe('StablecoinProviderAccount')) id: string,
  ): Promise<StablecoinProviderAccount> {
    return this.coins.getLink(p.platformId, id);
  }
}

/** `/stablecoins`: register, list, read; mints, burns and their list; Grid enablement (ours). */
@ApiTags('Stablecoins')
@ApiBasicAuth('BasicAuth')
@Controller('stablecoins')
export class StablecoinsController {
  constructor(
    private readonly coins: StablecoinsService,
    private readonly operations: StablecoinOperationsService,
  ) {}

  @Post()
  @RequiresPort('STABLECOIN_PROVIDER')
  @RequirePermission('MANAGE')
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Register an existing provider-created stablecoin', operationId: 'registerStablecoin' })
  @ApiBody({ type: StablecoinRegisterRequest })
  @ApiCreatedResponse({ type: Stablecoin })
  @ApiBadRequestResponse({
    description:
      'INVALID_INPUT, STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED, STABLECOIN_PROVIDER_ACCOUNT_INVALID, STABLECOIN_PROVIDER_ACCOUNT_REVOKED, STABLECOIN_VERIFICATION_FAILED',
  })
  @ApiNotFoundResponse({ description: 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND' })
  @ApiConflictResponse({ description: 'STABLECOIN_SYMBOL_ALREADY_EXISTS, STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS' })
  register(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<Stablecoin> {
    return this.coins.register(p.platformId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List stablecoins', operationId: 'listStablecoins' })
  @ApiOkResponse({ type: StablecoinList })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListStablecoinsQuery) {
    return this.coins.list(p.platformId, query);
  }

  @Get(':stablecoinId')
  @ApiOperation({ summary: 'Get a stablecoin', operationId: 'getStablecoin' })
  @ApiOkResponse({ type: Stablecoin })
  @ApiNotFoundResponse({ description: 'STABLECOIN_NOT_FOUND' })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
  ): Promise<Stablecoin> {
    return this.coins.get(p.platformId, id);
  }

  @Post(':stablecoinId/grid-operations/enablement')
  @RequiresPort('STABLECOIN_PROVIDER')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOperation({
    summary: 'Request Grid enablement of a stablecoin (ours)',
    operationId: 'requestStablecoinGridEnablement',
    description:
      'Not in the reference: NOT_ENABLED becomes PENDING_APPROVAL (a repeat while PENDING_APPROVAL answers the coin unchanged); ENABLING, ENABLED and DISABLED are driven by the operator (CLI `stablecoin:enablement`).',
  })
  @ApiOkResponse({ type: Stablecoin })
  @ApiBadRequestResponse({ description: 'STABLECOIN_NOT_PROVISIONED' })
  @ApiNotFoundResponse({ description: 'STABLECOIN_NOT_FOUND' })
  @ApiConflictResponse({ description: 'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE' })
  requestEnablement(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
  ): Promise<Stablecoin> {
    return this.coins.requestEnablement(p.platformId, id);
  }

  @Post(':stablecoinId/mints')
  @RequiresPort('STABLECOIN_PROVIDER')
  @RequirePermission('TRANSACT')
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Create a stablecoin mint operation', operationId: 'createStablecoinMint' })
  @ApiBody({ type: StablecoinMintRequest })
  @ApiCreatedResponse({ type: StablecoinOperation })
  @ApiBadRequestResponse({ description: 'INVALID_INPUT and the STABLECOIN_* codes (docs/stablecoins.md)' })
  @ApiNotFoundResponse({
    description: 'STABLECOIN_NOT_FOUND, STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND, ACCOUNT_NOT_FOUND',
  })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE: the provider cannot be reached' })
  mint(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
    @Body() body: unknown,
  ): Promise<StablecoinOperation> {
    return this.operations.mint(p.platformId, id, body);
  }

  @Post(':stablecoinId/burns')
  @RequiresPort('STABLECOIN_PROVIDER')
  @RequirePermission('TRANSACT')
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Create a stablecoin burn operation', operationId: 'createStablecoinBurn' })
  @ApiBody({ type: StablecoinBurnRequest })
  @ApiCreatedResponse({ type: StablecoinOperation })
  @ApiBadRequestResponse({ description: 'INVALID_INPUT, INSUFFICIENT_FUNDS and the STABLECOIN_* codes' })
  @ApiNotFoundResponse({
    description: 'STABLECOIN_NOT_FOUND, STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND, ACCOUNT_NOT_FOUND',
  })
  @ApiServiceUnavailableResponse({ description: 'SERVICE_UNAVAILABLE: the provider cannot be reached' })
  burn(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
    @Body() body: unknown,
  ): Promise<StablecoinOperation> {
    return this.operations.burn(p.platformId, id, body);
  }

  @Get(':stablecoinId/operations')
  @ApiOperation({ summary: 'List stablecoin issuer operations', operationId: 'listStablecoinOperations' })
  @ApiOkResponse({ type: OperationList })
  @ApiNotFoundResponse({ description: 'STABLECOIN_NOT_FOUND' })
  listOperations(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinId', new IdPipe('Stablecoin')) id: string,
    @Query() query: ListOperationsQuery,
  ) {
    return this.operations.list(p.platformId, id, query);
  }
}

/** `/stablecoin-operations/{id}`. */
@ApiTags('Stablecoins')
@ApiBasicAuth('BasicAuth')
@Controller('stablecoin-operations')
export class StablecoinOperationsController {
  constructor(private readonly operations: StablecoinOperationsService) {}

  @Get(':stablecoinOperationId')
  @ApiOperation({ summary: 'Get a stablecoin issuer operation', operationId: 'getStablecoinOperation' })
  @ApiOkResponse({ type: StablecoinOperation })
  @ApiNotFoundResponse({ description: 'STABLECOIN_OPERATION_NOT_FOUND' })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('stablecoinOperationId', new IdPipe('StablecoinOperation')) id: string,
  ): Promise<StablecoinOperation> {
    return this.operations.get(p.platformId, id);
  }
}
