import { Injectable, Optional } from '@nestjs/common';
import { noteAuditResource } from '../audit/audit-trail.js';
import { randomBytes } from 'node:crypto';
import { type BusinessTime, Clock, ClockOffsets, RealClock, timeOfPlatform } from '../common/clock.js';
import { validateBody } from '../common/validate-body.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { addRoute, routeOf, routingHash } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { UmaInvitation, UmaInvitationClaimRequest, UmaInvitationCreateRequest } from './uma.dto.js';
import { isUmaAddress } from './uma-domain.js';
import { UmaKeysService } from './uma-keys.service.js';

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'INVITATION.CLAIMED': UmaInvitation;
  }
}

interface InvitationRow {
  code: string;
  platform_id: string;
  inviter_uma: string;
  invitee_uma: string | null;
  first_name: string | null;
  amount_to_send: string | null;
  amount_currency: string | null;
  status: 'PENDING' | 'CLAIMED' | 'CANCELLED';
  /** BUSINESS due time: the inviting platform's clock (src/common/schedules.ts). */
  expires_at: BusinessTime | null;
  claimed_at: Date | null;
  created_at: Date;
}

const COLUMNS = `code, platform_id, inviter_uma, invitee_uma, first_name, amount_to_send, amount_currency, status,
                 expires_at, claimed_at, created_at`;

/**
 * UMA invitations (the reference's UmaInvitation): a customer's invitation, with a code to share;
 * any platform holding the code may read or claim it (the code is the capability), only the
 * creating platform may cancel it. Claiming notifies the creator (INVITATION.CLAIMED) in the
 * claim's transaction; the row is locked, so racing claims give one winner.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly config: AppConfig,
    private readonly keys: UmaKeysService,
    private readonly tx: TransactionService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {}

  private baseUrl(): string {
    if (this.config.UMA_INVITATION_URL) return this.config.UMA_INVITATION_URL.replace(/\/+$/, '');
    if (this.config.SANDBOX) return `${this.keys.baseUrl()}/invitations`;
    throw new ApiError('INVITATIONS_NOT_CONFIGURED', 'Invitations are not configured (set UMA_INVITATION_URL)');
  }

  async create(platformId: string, body: unknown): Promise<UmaInvitation> {
    const base = this.baseUrl();
    const { value, errors } = validateBody(UmaInvitationCreateRequest, body);
    const now = this.clock.now();
    if (value.expiresAt !== undefined && !errors.some((e) => e.field === 'expiresAt')) {
      if (new Date(value.expiresAt).getTime() <= now.getTime())
        errors.push(fieldError('expiresAt', 'expiresAt must be in the future'));
    }
    if (errors.length) throw invalidInput(errors);
    if (!isUmaAddress(value.inviterUma)) {
      throw new ApiError('INVALID_UMA_ADDRESS', 'inviterUma is not an UMA address');
    }
    return this.tx.run(async (m) => {
      const inviter = await m.query<Array<{ currency: string | null }>>(
        `SELECT (SELECT a.currency FROM internal_accounts a
                  WHERE a.customer_id = c.id AND a.platform_id = c.platform_id ORDER BY a.created_at, a.id LIMIT 1)
                  AS currency
           FROM customers c
          WHERE c.platform_id = $1 AND lower(c.uma_address) = lower($2) AND NOT c.is_deleted LIMIT 1`,
        [platformId, value.inviterUma],
      );
      if (!inviter[0]) {
        throw invalidInput([fieldError('inviterUma', 'inviterUma must be the UMA address of one of your customers')]);
      }
      // The code is the capability any platform may read or claim with: routed (kind
      // `uma_invitation`, unique across platforms; a taken code is drawn again).
      let code = randomBytes(6).toString('hex');
      while (!(await addRoute(m, 'uma_invitation', routingHash(code), platformId)))
        code = randomBytes(6).toString('hex');
      const rows = await m.query<InvitationRow[]>(
        `INSERT INTO uma_invitations (code, platform_id, inviter_customer_id, inviter_uma, first_name, amount_to_send,
                                      amount_currency, status, expires_at, created_at, updated_at)
         SELECT $1, $2, c.id, c.uma_address, $4, $5, $6, 'PENDING', $7, $8, $8
           FROM customers c WHERE c.platform_id = $2 AND lower(c.uma_address) = lower($3) AND NOT c.is_deleted
          LIMIT 1
         RETURNING ${COLUMNS}`,
        [
          code,
          platformId,
          value.inviterUma,
          value.firstName ?? null,
          value.amountToSend ?? null,
          value.amountToSend === undefined ? null : (inviter[0].currency ?? 'USD'),
          value.expiresAt ?? null,
          now,
        ],
      );
      if (rows[0]) noteAuditResource(`Invitation:${rows[0].code}`);
      return this.render(rows[0], base);
    });
  }

  async get(code: string): Promise<UmaInvitation> {
    const row = await this.find(code);
    return this.render(row, this.baseUrlOrPlaceholder());
  }

  async claim(platformId: string, code: string, body: unknown): Promise<UmaInvitation> {
    const { value, errors } = validateBody(UmaInvitationClaimRequest, body);
    if (errors.length) throw invalidInput(errors);
    if (!isUmaAddress(value.inviteeUma)) throw new ApiError('INVALID_UMA_ADDRESS', 'inviteeUma is not an UMA address');
    const base = this.baseUrlOrPlaceholder();
    return this.tx.run(async (m) => {
      const row = await this.find(code, m);
      this.assertPending(row);
      if (row.inviter_uma.toLowerCase() === value.inviteeUma.toLowerCase()) {
        throw invalidInput([fieldError('inviteeUma', 'the inviter cannot claim its own invitation')]);
      }
      const now = this.clock.now();
      const [[updated]] = await m.query<[InvitationRow[], number]>(
        `UPDATE uma_invitations SET status = 'CLAIMED', invitee_uma = $2, claimed_at = $3, updated_at = $3
          WHERE code = $1 AND platform_id = $4 RETURNING ${COLUMNS}`,
        [row.code, value.inviteeUma, now, row.platform_id],
      );
      const invitation = this.render(updated, base);
      await this.outbox.write(m, {
        platformId: row.platform_id,
        type: 'INVITATION.CLAIMED',
        aggregateId: `Invitation:${row.code}`,
        data: invitation,
      });
      void platformId; // any platform holding the code may claim it
      return invitation;
    });
  }

  async cancel(platformId: string, code: string): Promise<UmaInvitation> {
    const base = this.baseUrlOrPlaceholder();
    return this.tx.run(async (m) => {
      const row = await this.find(code, m);
      if (row.platform_id !== platformId) {
        throw new ApiError('FORBIDDEN', 'Only the platform which created the invitation can cancel it');
      }
      this.assertPending(row);
      const [[updated]] = await m.query<[InvitationRow[], number]>(
        `UPDATE uma_invitations SET status = 'CANCELLED', updated_at = $2 WHERE code = $1 AND platform_id = $3
         RETURNING ${COLUMNS}`,
        [row.code, this.clock.now(), row.platform_id],
      );
      noteAuditResource(`Invitation:${row.code}`);
      return this.render(updated, base);
    });
  }

  private assertPending(row: InvitationRow): void {
    if (row.status === 'CLAIMED')
      throw new ApiError('INVITATION_ALREADY_CLAIMED', `Invitation ${row.code} has already been claimed`);
    if (row.status === 'CANCELLED')
      throw new ApiError('INVITATION_CANCELLED', `Invitation ${row.code} has been cancelled`);
    if (this.expired(row))
      throw new ApiError('INVITATION_CANCELLED', `Invitation ${row.code} has expired`, {
        details: { status: 'EXPIRED', expiresAt: row.expires_at?.toISOString() ?? null },
      });
  }

  /** Expiry on the inviting platform's clock (it set `expiresAt`), whichever platform's request asks. */
  private expired(row: InvitationRow): boolean {
    if (row.status !== 'PENDING' || row.expires_at === null) return false;
    return (
      row.expires_at.getTime() <= timeOfPlatform(this.realClock.now(), this.clockOffsets, row.platform_id).getTime()
    );
  }

  /**
   * Locked FOR UPDATE when `m` (a transaction) is given. Any platform may hold the code: its
   * platform comes from `routing_keys` (kind `uma_invitation`), then the read is pinned to it.
   */
  private async find(
    code: string,
    m?: { query: <T>(sql: string, p: unknown[]) => Promise<T> },
  ): Promise<InvitationRow> {
    const notFound = () => new ApiError('INVITATION_NOT_FOUND', `Invitation ${code.slice(0, 64)} not found`);
    if (!/^[0-9a-f]{12}$/.test(code)) throw notFound();
    const q = m ?? this.tx;
    const platformId = await routeOf(q, 'uma_invitation', routingHash(code));
    if (platformId === null) throw notFound();
    const sql = `SELECT ${COLUMNS} FROM uma_invitations WHERE code = $1 AND platform_id = $2${m ? ' FOR UPDATE' : ''}`;
    const rows = await q.query<InvitationRow[]>(sql, [code, platformId]);
    if (!rows[0]) throw notFound();
    return rows[0];
  }

  private baseUrlOrPlaceholder(): string {
    try {
      return this.baseUrl();
    } catch {
      return `${this.keys.baseUrl()}/invitations`;
    }
  }

  private render(row: InvitationRow, base: string): UmaInvitation {
    const out: UmaInvitation = {
      code: row.code,
      createdAt: row.created_at.toISOString(),
      url: `${base}/${row.code}`,
      inviterUma: row.inviter_uma,
      status: this.expired(row) ? 'EXPIRED' : row.status,
    };
    if (row.claimed_at) out.claimedAt = row.claimed_at.toISOString();
    if (row.expires_at) out.expiresAt = row.expires_at.toISOString();
    if (row.invitee_uma) out.inviteeUma = row.invitee_uma;
    if (row.first_name) out.firstName = row.first_name;
    if (row.amount_to_send !== null && row.amount_currency) {
      const c = currencyInfo(row.amount_currency);
      out.amountToSend = {
        amount: Number(row.amount_to_send),
        currency: { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals },
      };
    }
    return out;
  }
}
