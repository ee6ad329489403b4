import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { RealClock } from '../common/clock.js';
import { IdPipe } from '../common/id.pipe.js';
import { ConsoleSearchService } from './console-search.service.js';
import type { ConsoleTransactionsPage } from './console-search.service.js';
import { ConsolePlatform, ConsoleSessionGuard } from './console-session.guard.js';
import { ConsoleTransactionsService } from './console-transactions.service.js';
import type { TransactionHistoryView } from './console-transactions.service.js';
import { ConsoleTransactionsQuery } from './console.dto.js';

/**
 * The console's own reads of transactions (outside the API's version prefix, like its session
 * routes): the search (by customer name, amount and date range besides status), its CSV, and a
 * transaction's status timeline and ledger postings, which the REST API does not expose. Only for a
 * console session (the cookie; an API token's Basic credentials are not accepted here): any
 * permission may read them, as every console page.
 */
@ApiExcludeController()
@Controller('console/api/transactions')
@Public()
@UseGuards(ConsoleSessionGuard)
export class ConsoleTransactionsController {
  constructor(
    private readonly transactions: ConsoleTransactionsService,
    private readonly search: ConsoleSearchService,
    private readonly realClock: RealClock,
  ) {}

  @Get()
  async list(
    @ConsolePlatform() platformId: string,
    @Res({ passthrough: true }) res: Response,
    @Query() query: ConsoleTransactionsQuery,
  ): Promise<ConsoleTransactionsPage> {
    res.setHeader('Cache-Control', 'no-store');
    return this.search.search(platformId, query);
  }

  /** The same filters as the list, every matching transaction, streamed as CSV (a download). */
  @Get('csv')
  async csv(
    @ConsolePlatform() platformId: string,
    @Res() res: Response,
    @Query() query: ConsoleTransactionsQuery,
  ): Promise<void> {
    const stamp = this.realClock.now().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    let started = false;
    const write = async (chunk: string) => {
      if (!started) {
        started = true;
        res.status(200);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="transactions-${stamp}.csv"`);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      }
      if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    };
    try {
      await this.search.csv(platformId, query, write, () => res.destroyed);
    } catch (err) {
      // Before the first byte the error is an ordinary answer; after it, the download is cut short.
      if (!started) throw err;
      res.destroy(err as Error);
      return;
    }
    res.end();
  }

  @Get(':transactionId/history')
  async history(
    @ConsolePlatform() platformId: string,
    @Res({ passthrough: true }) res: Response,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
  ): Promise<TransactionHistoryView> {
    res.setHeader('Cache-Control', 'no-store');
    return this.transactions.history(platformId, transactionId);
  }
}
