import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeController,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPlatform, Public, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { InvitationsService } from './invitations.service.js';
import {
  ReceiverExternalAccountLookupResponse,
  ReceiverLookupQuery,
  ReceiverUmaLookupResponse,
  UmaInvitation,
  UmaInvitationClaimRequest,
  UmaInvitationCreateRequest,
  UmaProvider,
  UmaProvidersQuery,
} from './uma.dto.js';
import { PageOf } from '../common/pagination.js';
import { UmaKeysService } from './uma-keys.service.js';
import { UmaLookupService } from './uma-lookup.service.js';
import { UmaProvidersService } from './uma-providers.service.js';
import { UmaReceiverService } from './uma-receiver.service.js';
import { UmaSettlementService } from './uma-settlement.service.js';

/**
 * What a deployment publishes to other UMA participants (outside the versioned API, public):
 * its keys and each customer's lnurlp endpoint (docs/uma.md).
 */
@ApiExcludeController()
@Controller('.well-known')
export class UmaWellKnownController {
  constructor(
    private readonly keys: UmaKeysService,
    private readonly receiver: UmaReceiverService,
    private readonly settlements: UmaSettlementService,
  ) {}

  @Get('lnurlpubkey')
  @Public()
  async pubkey(@Res() res: Response): Promise<void> {
    res.status(200).json(await this.keys.pubKeyResponse());
  }

  @Get('lnurlp/:username')
  @Public()
  async lnurlp(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.status(200).json(await this.receiver.lnurlp(req.originalUrl));
  }

  /** The pay request (UMA's payreq callback): answered with the signed pay-request response. */
  @Post('lnurlp/:username/payreq')
  @Public()
  async payreq(@Param('username') username: string, @Body() body: unknown, @Res() res: Response): Promise<void> {
    res.status(200).json(await this.receiver.payreq(username, body));
  }

  /** Settlement callbacks from other deployments (the sandbox settlement layer, docs/uma.md). */
  @Post('uma-settlement')
  @Public()
  async settlement(@Body() body: unknown, @Res() res: Response): Promise<void> {
    res.status(200).json(await this.settlements.accept(body));
  }
}

@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('receiver')
export class ReceiverLookupController {
  constructor(private readonly lookups: UmaLookupService) {}

  @Get('uma/:receiverUmaAddress')
  @ApiOperation({ summary: 'Look up an UMA address for payment', operationId: 'lookupUma' })
  @ApiOkResponse({ type: ReceiverUmaLookupResponse })
  lookupUma(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('receiverUmaAddress') address: string,
    @Query() query: ReceiverLookupQuery,
  ) {
    return this.lookups.lookupUma(p.platformId, address, query);
  }

  @Get('external-account/:accountId')
  @ApiOperation({ summary: 'Look up an external account for payment', operationId: 'lookupExternalAccount' })
  @ApiOkResponse({ type: ReceiverExternalAccountLookupResponse })
  lookupExternalAccount(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('accountId') accountId: string,
    @Query() query: ReceiverLookupQuery,
  ) {
    return this.lookups.lookupExternalAccount(p.platformId, accountId, query);
  }
}

@ApiTags('Invitations')
@ApiBasicAuth('BasicAuth')
@Controller('invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post()
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOperation({ summary: 'Create an UMA invitation', operationId: 'createInvitation' })
  @ApiBody({ type: UmaInvitationCreateRequest })
  @ApiCreatedResponse({ type: UmaInvitation })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown) {
    return this.invitations.create(p.platformId, body);
  }

  @Get(':invitationCode')
  @ApiOperation({ summary: 'Get an UMA invitation by code', operationId: 'getInvitation' })
  @ApiOkResponse({ type: UmaInvitation })
  get(@Param('invitationCode') code: string) {
    return this.invitations.get(code);
  }

  @Post(':invitationCode/claim')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOperation({ summary: 'Claim an UMA invitation', operationId: 'claimInvitation' })
  @ApiBody({ type: UmaInvitationClaimRequest })
  @ApiOkResponse({ type: UmaInvitation })
  claim(@CurrentPlatform() p: PlatformPrincipal, @Param('invitationCode') code: string, @Body() body: unknown) {
    return this.invitations.claim(p.platformId, code, body);
  }

  @Post(':invitationCode/cancel')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOperation({ summary: 'Cancel an UMA invitation', operationId: 'cancelInvitation' })
  @ApiOkResponse({ type: UmaInvitation })
  cancel(@CurrentPlatform() p: PlatformPrincipal, @Param('invitationCode') code: string) {
    return this.invitations.cancel(p.platformId, code);
  }
}

@ApiTags('Available UMA Providers')
@ApiBasicAuth('BasicAuth')
@Controller('uma-providers')
export class UmaProvidersController {
  constructor(private readonly providers: UmaProvidersService) {}

  @Get()
  @ApiOperation({ summary: 'List available Counterparty Providers', operationId: 'getAvailableUmaProviders' })
  @ApiOkResponse({ type: PageOf(UmaProvider, 'UmaProviderListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: UmaProvidersQuery) {
    return this.providers.list(p.platformId, query);
  }
}
