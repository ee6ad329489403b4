import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { type Page, PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import {
  BeneficialOwner,
  BeneficialOwnerCreateRequest,
  BeneficialOwnerUpdateRequest,
  ListBeneficialOwnersQuery,
} from './beneficial-owner.dto.js';
import { BeneficialOwnersService } from './beneficial-owners.service.js';

const BeneficialOwnerListResponse = PageOf(BeneficialOwner, 'BeneficialOwnerListResponse');

@ApiTags('KYC/KYB Verifications')
@ApiBasicAuth('BasicAuth')
@Controller('beneficial-owners')
export class BeneficialOwnersController {
  constructor(private readonly owners: BeneficialOwnersService) {}

  @ApiOperation({ summary: 'Create a beneficial owner', operationId: 'createBeneficialOwner' })
  @ApiErrors(410)
  @Post()
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiCreatedResponse({ type: BeneficialOwner })
  create(
    @CurrentPlatform() p: PlatformPrincipal,
    @Body() body: BeneficialOwnerCreateRequest,
  ): Promise<BeneficialOwner> {
    return this.owners.create(p.platformId, body);
  }

  @ApiOperation({ summary: 'List beneficial owners', operationId: 'listBeneficialOwners' })
  @Get()
  @ApiOkResponse({ type: BeneficialOwnerListResponse })
  list(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query() query: ListBeneficialOwnersQuery,
  ): Promise<Page<BeneficialOwner>> {
    return this.owners.list(p.platformId, query);
  }

  @ApiOperation({ summary: 'Get a beneficial owner', operationId: 'getBeneficialOwner' })
  @Get(':beneficialOwnerId')
  @ApiOkResponse({ type: BeneficialOwner })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('beneficialOwnerId', new IdPipe('BeneficialOwner')) id: string,
  ): Promise<BeneficialOwner> {
    return this.owners.get(p.platformId, id);
  }

  @ApiOperation({ summary: 'Update a beneficial owner', operationId: 'updateBeneficialOwner' })
  @Patch(':beneficialOwnerId')
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: BeneficialOwner })
  update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('beneficialOwnerId', new IdPipe('BeneficialOwner')) id: string,
    @Body() body: BeneficialOwnerUpdateRequest,
  ): Promise<BeneficialOwner> {
    return this.owners.update(p.platformId, id, body);
  }
}
