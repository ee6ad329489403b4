import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { parseId } from '../common/ids.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  CustomerExternalAccountCreateRequest,
  ExternalAccount,
  ListCustomerExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  OwnershipChallenge,
  OwnershipChallengeRequest,
  OwnershipVerifyRequest,
  PlatformExternalAccountCreateRequest,
} from './external-account.dto.js';
import { ExternalAccountsService, Owner } from './external-accounts.service.js';
import { OwnershipVerificationService } from './ownership-verification.service.js';

const ExternalAccountListResponse = PageOf(ExternalAccount, 'ExternalAccountListResponse');

/**
 * GET and DELETE by id, the same for both route families; each subclass says whose accounts it
 * serves (and `scope` names its operations: `getPlatformExternalAccountById`, ...). Create bodies
 * are typed `unknown` so the global pipe leaves them to the service, which reports DTO errors and
 * accountInfo variant errors together in one 400.
 */
function externalAccountByIdRoutes(scope: 'Platform' | 'Customer') {
  // The reference names the customer's ownership operations without a prefix.
  const ownership = scope === 'Platform' ? 'PlatformExternalAccountOwnership' : 'ExternalAccountOwnership';
  abstract class ExternalAccountByIdRoutes {
    protected constructor(
      protected readonly accounts: ExternalAccountsService,
      private readonly ownershipVerification: OwnershipVerificationService,
      private readonly owner: Owner,
    ) {}

    @Post(':externalAccountId/challenge')
    @RequirePermission('TRANSACT')
    @ApiOperation({
      summary: 'Start an ownership verification challenge',
      description:
        'For a FIRST_PARTY self-custody wallet in PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED: the message its wallet must sign. A new challenge replaces the outstanding one.',
      operationId: `create${ownership}Challenge`,
    })
    @ApiCreatedResponse({ type: OwnershipChallenge })
    challenge(
      @CurrentPlatform() p: PlatformPrincipal,
      @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
      @Body() body: OwnershipChallengeRequest,
    ): Promise<OwnershipChallenge> {
      return this.ownershipVerification.challenge(p.platformId, this.owner, id, body);
    }

    @Post(':externalAccountId/verify')
    @HttpCode(200)
    @RequirePermission('TRANSACT')
    @ApiOperation({
      summary: 'Verify ownership with a wallet signature',
      description:
        'Completes the outstanding WALLET_SIGNATURE challenge: ACTIVE when the signature verifies; otherwise 400 and the account is UNVERIFIED.',
      operationId: `verify${ownership}`,
    })
    @ApiOkResponse({ type: ExternalAccount })
    verify(
      @CurrentPlatform() p: PlatformPrincipal,
      @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
      @Body() body: OwnershipVerifyRequest,
    ): Promise<ExternalAccount> {
      return this.ownershipVerification.verify(p.platformId, this.owner, id, body);
    }

    @Get(':externalAccountId')
    @ApiOperation({
      summary: `Get ${scope.toLowerCase()} external account by ID`,
      operationId: `get${scope}ExternalAccountById`,
    })
    @ApiOkResponse({ type: ExternalAccount })
    get(
      @CurrentPlatform() p: PlatformPrincipal,
      @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
    ): Promise<ExternalAccount> {
      return this.accounts.get(p.platformId, this.owner, id);
    }

    @Delete(':externalAccountId')
    @ApiOperation({
      summary: `Delete ${scope.toLowerCase()} external account by ID`,
      operationId: `delete${scope}ExternalAccountById`,
    })
    @HttpCode(204)
    @RequirePermission('TRANSACT')
    async delete(
      @CurrentPlatform() p: PlatformPrincipal,
      @Param('externalAccountId', new IdPipe('ExternalAccount')) id: string,
    ): Promise<void> {
      await this.accounts.delete(p.platformId, this.owner, id);
    }
  }
  return ExternalAccountByIdRoutes;
}

@ApiTags('External Accounts')
@ApiBasicAuth('BasicAuth')
@Controller('platform/external-accounts')
export class PlatformExternalAccountsController extends externalAccountByIdRoutes('Platform') {
  constructor(accounts: ExternalAccountsService, ownershipVerification: OwnershipVerificationService) {
    super(accounts, ownershipVerification, { kind: 'platform' });
  }

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent({ oneStatement: true })
  @ApiOperation({ summary: 'Add a new platform external account', operationId: 'createPlatformExternalAccount' })
  @ApiBody({ type: PlatformExternalAccountCreateRequest })
  @ApiCreatedResponse({ type: ExternalAccount })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<ExternalAccount> {
    return this.accounts.createForPlatform(p.platformId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List platform external accounts', operationId: 'listPlatformExternalAccounts' })
  @ApiOkResponse({ type: ExternalAccountListResponse })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListPlatformExternalAccountsQuery) {
    return this.accounts.list(p.platformId, { kind: 'platform' }, query);
  }
}

@ApiTags('External Accounts')
@ApiBasicAuth('BasicAuth')
@Controller('customers/external-accounts')
export class CustomerExternalAccountsController extends externalAccountByIdRoutes('Customer') {
  constructor(accounts: ExternalAccountsService, ownershipVerification: OwnershipVerificationService) {
    super(accounts, ownershipVerification, { kind: 'customer' });
  }

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Add a new external account', operationId: 'createCustomerExternalAccount' })
  @ApiBody({ type: CustomerExternalAccountCreateRequest })
  @ApiCreatedResponse({ type: ExternalAccount })
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<ExternalAccount> {
    return this.accounts.createForCustomer(p.platformId, body);
  }

  @Get()
  @ApiOperation({ summary: 'List Customer external accounts', operationId: 'listCustomerExternalAccounts' })
  @ApiOkResponse({ type: ExternalAccountListResponse })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListCustomerExternalAccountsQuery) {
    const customerId = query.customerId ? (parseId('Customer', query.customerId) ?? undefined) : undefined;
    return this.accounts.list(p.platformId, { kind: 'customer', customerId }, query);
  }
}
