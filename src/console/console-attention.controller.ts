import { Body, Controller, Get, HttpCode, OnModuleInit, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import type { Response } from 'express';
import { AuditTrail, noteAuditResource } from '../audit/audit-trail.js';
import { CurrentPlatform, type PlatformPrincipal, RequirePermission } from '../auth/auth.decorators.js';
import { formatId } from '../common/ids.js';
import { IdPipe } from '../common/id.pipe.js';
import type { OperatorResolution } from '../uma/uma-reconciliation.service.js';
import { type AttentionView, ConsoleAttentionService } from './console-attention.service.js';

/** `POST .../resolve`: how the operator resolves the payment, and why (on its timeline). */
export class ResolveSettlementBody {
  @IsIn(['REFUND', 'COMPLETE'])
  action!: OperatorResolution;

  @IsString()
  @MinLength(3)
  @MaxLength(500)
  reason!: string;
}

const BASE = '/console/api/attention/settlements/:transactionId';

/**
 * The Needs attention page's routes (outside the API's version prefix, like the console's other
 * routes; the session cookie or an API token, through the global guard: reading needs any
 * permission, acting MANAGE, and every write with the cookie its CSRF token). Both actions are in
 * the audit trail (`consoleRetrySettlement`, `consoleResolveSettlement`, by the token).
 */
@ApiExcludeController()
@Controller('console/api/attention')
export class ConsoleAttentionController implements OnModuleInit {
  constructor(
    private readonly attention: ConsoleAttentionService,
    private readonly audit: AuditTrail,
  ) {}

  onModuleInit(): void {
    this.audit.usePublicOperation('POST', `${BASE}/retry`, 'consoleRetrySettlement', 200);
    this.audit.usePublicOperation('POST', `${BASE}/resolve`, 'consoleResolveSettlement', 200);
  }

  @Get()
  list(@CurrentPlatform() p: PlatformPrincipal, @Res({ passthrough: true }) res: Response): Promise<AttentionView> {
    res.setHeader('Cache-Control', 'no-store');
    return this.attention.list(p.platformId);
  }

  @Post('settlements/:transactionId/retry')
  @RequirePermission('MANAGE')
  @HttpCode(200)
  retry(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
  ): Promise<{ transactionId: string; status: string }> {
    noteAuditResource(formatId('Transaction', transactionId));
    return this.attention.retry(p.platformId, transactionId);
  }

  @Post('settlements/:transactionId/resolve')
  @RequirePermission('MANAGE')
  @HttpCode(200)
  resolve(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: ResolveSettlementBody,
  ): Promise<{ transactionId: string; status: string }> {
    return this.attention.resolve(p.platformId, transactionId, body.action, body.reason.trim());
  }
}
