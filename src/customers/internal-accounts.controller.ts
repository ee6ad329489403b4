import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { PageOf } from '../common/pagination.js';
import type { Page } from '../common/pagination.js';
import {
  InternalAccount,
  ListCustomerInternalAccountsQuery,
  ListPlatformInternalAccountsQuery,
  PlatformInternalAccountListResponse,
} from './internal-account.dto.js';
import { InternalAccountsService } from './internal-accounts.service.js';

/** Registered before CustomersController so `customers/internal-accounts` never reaches `customers/:customerId`. */
@ApiTags('Internal Accounts')
@ApiBasicAuth('BasicAuth')
@Controller()
export class InternalAccountsController {
  constructor(private readonly accounts: InternalAccountsService) {}

  @ApiOperation({ summary: 'List Customer internal accounts', operationId: 'listCustomerInternalAccounts' })
  @Get('customers/internal-accounts')
  @ApiOkResponse({ type: PageOf(InternalAccount, 'InternalAccountListResponse') })
  listForCustomers(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query() query: ListCustomerInternalAccountsQuery,
  ): Promise<Page<InternalAccount>> {
    return this.accounts.listForCustomers(p.platformId, query);
  }

  @ApiOperation({ summary: 'List platform internal accounts', operationId: 'listPlatformInternalAccounts' })
  @Get('platform/internal-accounts')
  @ApiOkResponse({ type: PlatformInternalAccountListResponse })
  listForPlatform(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query() query: ListPlatformInternalAccountsQuery,
  ): Promise<PlatformInternalAccountListResponse> {
    return this.accounts.listForPlatform(p.platformId, query);
  }
}
