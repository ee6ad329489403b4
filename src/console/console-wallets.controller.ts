import { Controller, Get, HttpCode, OnModuleInit, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuditTrail } from '../audit/audit-trail.js';
import { CurrentPlatform, type PlatformPrincipal, RequirePermission } from '../auth/auth.decorators.js';
import { formatId } from '../common/ids.js';
import { IdPipe } from '../common/id.pipe.js';
import { WalletsService, type OperatorWalletView } from '../embedded-wallets/wallets.service.js';
import type { AuthSession } from '../embedded-wallets/wallet.dto.js';

/**
 * The Wallet panel of a customer's page: an embedded wallet's credentials and sessions (revoked
 * and expired ones included, which GET /auth/sessions leaves out), and the operator's revocation of
 * a live session (DELETE /auth/sessions/{id} needs the wallet owner's signature, which an operator
 * cannot make). Outside the API's version prefix like the console's other routes; the session
 * cookie or an API token, through the global guard: reading needs any permission, revoking
 * MANAGE (and, with the cookie, its CSRF token). The revocation is in the audit trail
 * (`consoleRevokeWalletSession`, by the token) with the session as its resource.
 */
@ApiExcludeController()
@Controller('console/api')
export class ConsoleWalletsController implements OnModuleInit {
  constructor(
    private readonly wallets: WalletsService,
    private readonly audit: AuditTrail,
  ) {}

  onModuleInit(): void {
    this.audit.usePublicOperation(
      'POST',
      '/console/api/wallet-sessions/:sessionId/revoke',
      'consoleRevokeWalletSession',
      200,
    );
  }

  @Get('wallets/:accountId')
  wallet(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('accountId', new IdPipe('InternalAccount')) accountId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OperatorWalletView> {
    res.setHeader('Cache-Control', 'no-store');
    return this.wallets.operatorView(p.platformId, formatId('InternalAccount', accountId));
  }

  @Post('wallet-sessions/:sessionId/revoke')
  @RequirePermission('MANAGE')
  @HttpCode(200)
  revoke(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('sessionId', new IdPipe('Session')) sessionId: string,
  ): Promise<AuthSession & { revokedAt: string }> {
    return this.wallets.revokeSessionAsOperator(p.platformId, formatId('Session', sessionId));
  }
}
