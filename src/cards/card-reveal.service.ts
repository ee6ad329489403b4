import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { principalActor } from '../audit/audit-record.js';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Clock, ClockOffsets, enterPlatformClock, later } from '../common/clock.js';
import { formatId, isUuid, newUuid } from '../common/ids.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { ScaCustomers } from '../sca/sca-customers.js';
import { ScaService } from '../sca/sca.service.js';
import { CardEntity } from './card.entity.js';
import { cardNotFound } from './cards.service.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { sandboxCardDetails } from './issuer/sandbox-card-issuer.js';

/** How long a reveal URL works (and it works once). */
export const REVEAL_TTL_MS = 2 * 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * `POST /cards/{id}/reveal`: SCA-protected (a cardholder in an SCA region needs a live SCA login
 * session, 409 SCA_SESSION_REQUIRED otherwise), attributed (no actor: 403), and in the audit trail
 * (the request's own record, written in this transaction). Mints a single-use token, stored as its
 * SHA-256 hash (card_reveals), and asks the issuer for the URL. The sandbox issuer's page
 * (`open`) spends the token and shows the PAN, CVV and expiry; they are never stored or logged.
 */
@Injectable()
export class CardRevealService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly issuer: CardIssuer,
    private readonly scaCustomers: ScaCustomers,
    private readonly sca: ScaService,
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {}

  async reveal(principal: unknown, platformId: string, cardUuid: string, baseUrl: string) {
    if (!principalActor(principal))
      throw new ApiError('FORBIDDEN', 'A card reveal needs an attributable actor to audit it against');
    return this.tx.run(async (m) => {
      const card = await findOwned(m, CardEntity, platformId, { id: cardUuid }, () => cardNotFound(cardUuid));
      noteAuditResource(formatId('Card', card.id));
      if (card.status === 'CLOSED') throw new ApiError('CONFLICT', 'A CLOSED card cannot be revealed');
      const holder = await this.scaCustomers.find(m, platformId, card.customerId);
      if (this.scaCustomers.requiresSca(holder)) await this.sca.requireSession(m, holder.platformId, holder.id);
      const id = newUuid();
      const secret = randomBytes(32).toString('base64url');
      const now = this.clock.now();
      const expiresAt = later(now, REVEAL_TTL_MS);
      // The token names its platform too: the public page's lookup is pinned to the platform's shard.
      const token = `${platformId}.${id}.${secret}`;
      const panEmbedUrl = await this.issuer.revealUrl({ card, token, expiresAt, baseUrl });
      await m.query(
        `INSERT INTO card_reveals (id, platform_id, card_id, token_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, platformId, card.id, sha256(secret), now, expiresAt],
      );
      return { panEmbedUrl, expiresAt: expiresAt.toISOString() };
    });
  }

  /**
   * The sandbox issuer's page: spends the token (once, before it expires, for this card only) and
   * answers the card's details; null when the token does not open this card now.
   */
  async open(cardUuid: string, token: unknown): Promise<{ pan: string; cvv: string; expiry: string } | null> {
    if (typeof token !== 'string' || token.length > 200) return null;
    const [platformId, id, secret, ...rest] = token.split('.');
    if (!platformId || !id || !secret || rest.length || !isUuid(platformId) || !isUuid(id)) return null;
    return this.tx.run(async (m) => {
      const rows = await m.query<
        Array<{ platform_id: string; card_id: string; token_hash: Buffer; expires_at: Date; used_at: Date | null }>
      >(
        `SELECT platform_id, card_id, token_hash, expires_at, used_at FROM card_reveals
          WHERE id = $1 AND platform_id = $2 FOR UPDATE`,
        [id, platformId],
      );
      const row = rows[0];
      if (!row || !timingSafeEqual(Buffer.from(row.token_hash), sha256(secret))) return null;
      // expiry on the card's platform's clock (a public page: the platform is known only now)
      enterPlatformClock(this.clockOffsets, row.platform_id);
      const now = this.clock.now();
      if (row.card_id !== cardUuid || row.used_at || row.expires_at.getTime() <= now.getTime()) return null;
      await m.query(`UPDATE card_reveals SET used_at = $2 WHERE id = $1 AND platform_id = $3`, [id, now, platformId]);
      const card = await m.findOne(CardEntity, { where: { id: row.card_id, platformId } });
      return card ? sandboxCardDetails(card) : null;
    });
  }
}
