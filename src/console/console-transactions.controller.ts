import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { ConsoleSessionsService, readCookie, SESSION_COOKIE } from '../auth/console-sessions.service.js';
import { IdPipe } from '../common/id.pipe.js';
import { ApiError } from '../errors/api-error.js';
import { ConsoleTransactionsService } from './console-transactions.service.js';
import type { TransactionHistoryView } from './console-transactions.service.js';

/**
 * The console's own read of a transaction (outside the API's version prefix, like its session
 * routes): the status timeline and the ledger postings, which the REST API does not expose. Only
 * for a console session (the cookie; an API token's Basic credentials are not accepted here): any
 * permission may read it, as every console page.
 */
@ApiExcludeController()
@Controller('console/api/transactions')
export class ConsoleTransactionsController {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly transactions: ConsoleTransactionsService,
  ) {}

  @Get(':transactionId/history')
  @Public()
  async history(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
  ): Promise<TransactionHistoryView> {
    const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
    const session = sessionId === undefined ? null : await this.sessions.find(sessionId);
    if (!session) throw new ApiError('UNAUTHORIZED', 'Not signed in to the console');
    res.setHeader('Cache-Control', 'no-store');
    return this.transactions.history(session.principal.platformId, transactionId);
  }
}
