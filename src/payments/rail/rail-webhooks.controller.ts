import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/auth.decorators.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { RawBody, readRawBody } from '../../common/raw-body.js';
import { RailAdapter, type RailNews, RailWebhookRejected } from './rail.js';
import { RailNewsApplier } from './rail-news.service.js';

/**
 * `POST /webhooks/rails/{adapter}` (outside the versioned prefix, public): a payout rail
 * provider's news. The adapter verifies it over the body's exact bytes with the provider's own
 * signature scheme (`RailAdapter.parseWebhook`): a forged, tampered or malformed one is 401
 * INVALID_SIGNATURE with nothing changed. The news is applied in one transaction by
 * RailNewsApplier (deduplicated on the provider's event id, in status order), answered 200 with
 * how many pieces were new. Only the bound adapter (PAYOUT_RAIL) has a route: any other is 404.
 */
@ApiExcludeController()
@Controller('webhooks/rails')
export class RailWebhooksController {
  constructor(
    private readonly rail: RailAdapter,
    private readonly applier: RailNewsApplier,
    private readonly tx: TransactionService,
  ) {}

  @Post(':adapter')
  @Public()
  @RawBody()
  @HttpCode(200)
  async receive(@Param('adapter') adapter: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    if (adapter !== this.rail.name || this.rail.name === 'none')
      throw new ApiError('NOT_FOUND', `No payout rail named ${JSON.stringify(adapter).slice(0, 60)} is configured`);
    const body = await readRawBody(req, res);
    let news: RailNews[];
    try {
      news = this.rail.parseWebhook(body, req.headers);
    } catch (error) {
      if (error instanceof RailWebhookRejected)
        throw new ApiError('INVALID_SIGNATURE', `The ${adapter} webhook was refused: ${error.message}`);
      throw error;
    }
    const steps = await this.tx.run((m) => this.applier.apply(m, news));
    res.status(200).json({ received: news.length, steps });
  }
}
