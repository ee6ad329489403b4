import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { parseId } from '../common/ids.js';
import { ApiError } from '../errors/api-error.js';
import { CardRevealService } from './card-reveal.service.js';

/** The headers of the reveal page: never cached, no referrer, nothing loaded, no script, no form. */
export const REVEAL_PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store, max-age=0',
  Pragma: 'no-cache',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The sandbox card issuer's reveal page (`panEmbedUrl`): public (the single-use token in `t` is the
 * credential), shows PAN, expiry and CVV in elements with the ids `card`, `pan`, `expiry` and `cvv`.
 * A used, expired, foreign or unknown token is 404.
 */
@ApiExcludeController()
@Controller('sandbox-issuer/cards')
export class CardRevealPageController {
  constructor(private readonly reveals: CardRevealService) {}

  @Public()
  @Get(':id/reveal')
  async page(@Param('id') id: string, @Query('t') token: unknown, @Res() res: Response): Promise<void> {
    for (const [name, value] of Object.entries(REVEAL_PAGE_HEADERS)) res.setHeader(name, value);
    const cardUuid = parseId('Card', id);
    const details = cardUuid ? await this.reveals.open(cardUuid, token) : null;
    if (!details) throw new ApiError('NOT_FOUND', 'This reveal link is not valid: it works once, for minutes');
    const pan = details.pan.replace(/(\d{4})(?=\d)/g, '$1<span class="pan-separator"> </span>');
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Card details</title></head>` +
          `<body><div id="card"><div id="pan">${pan}</div><div id="expiry">${escapeHtml(details.expiry)}</div>` +
          `<div id="cvv">${escapeHtml(details.cvv)}</div></div></body></html>`,
      );
  }
}
