import { createHash, randomBytes } from 'node:crypto';
import { noteAuditActor, noteAuditResource } from '../audit/audit-trail.js';
import { Injectable, Optional } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { BeneficialOwnersService } from '../beneficial-owners/beneficial-owners.service.js';
import { Clock, ClockOffsets, enterPlatformClock, later } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { type Page, paginate } from '../common/pagination.js';
import type { CustomerEntity } from '../customers/customer.entity.js';
import type { KycStatus } from '../customers/customer.types.js';
import { CustomersService } from '../customers/customers.service.js';
import { findOwned } from '../database/queries.js';
import { addRoute, routeOf, routingHash } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import { DocumentsService } from '../documents/documents.service.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { verificationErrors } from './requirements.js';
import type { KycLinkResponse, ListVerificationsQuery, Verification } from './verification.dto.js';
import { KycLinkEntity, VerificationEntity } from './verification.entity.js';
import { verificationEvent } from './verification-events.js';
import type { SandboxOutcome, VerificationStatus } from './verification.types.js';
import { requireContactVerified } from '../customers/contact-verification-rules.js';

export function renderVerification(row: VerificationEntity): Verification {
  return {
    id: formatId('Verification', row.id),
    customerId: formatId('Customer', row.customerId),
    verificationStatus: row.status,
    errors: row.errors,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A verification still with the provider (or done): submitting again answers it unchanged. */
const OPEN_OR_APPROVED: ReadonlySet<VerificationStatus> = new Set(['IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'APPROVED']);

/** How long a hosted KYC link stays usable. */
export const KYC_LINK_TTL_MS = 60 * 60 * 1000;

const KYC_OF: Record<SandboxOutcome, KycStatus | null> = {
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  PENDING_MANUAL_REVIEW: null,
};

const notFound = (id: string) =>
  new ApiError('VERIFICATION_NOT_FOUND', `Verification ${formatId('Verification', id)} not found`);

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * KYC/KYB verifications (the reference's /verifications): what is missing, the submission, and
 * the outcome (decided in sandbox by POST /sandbox/verifications/{id}/complete or the hosted KYC
 * page), each with its VERIFICATION.* event and the customer's CUSTOMER.KYC_* / KYB_* event in
 * the same transaction. The owner of `verifications` and `kyc_links`.
 */
@Injectable()
export class VerificationsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly owners: BeneficialOwnersService,
    private readonly documents: DocumentsService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {}

  /**
   * Submits a customer: RESOLVE_ERRORS with what is missing, or IN_PROGRESS (its documents are
   * then submitted: not deletable; the customer's status PENDING). The customer row is locked
   * FOR UPDATE, so concurrent submissions of one customer run one after the other.
   */
  async submit(platformId: string, customerRef: string): Promise<Verification> {
    const customerId = parseId('Customer', customerRef)!;
    return this.tx.run(async (m) => {
      const customer = await this.customers.requireActive(m, platformId, customerId, 'update');
      const latest = await m.findOne(VerificationEntity, {
        where: { platformId, customerId },
        order: { id: 'DESC' },
      });
      if (latest && OPEN_OR_APPROVED.has(latest.status)) return renderVerification(latest);
      const owners = await this.owners.ofCustomer(m, platformId, customerId);
      const documents = await this.documents.ofCustomer(m, platformId, customerId);
      const errors = verificationErrors(
        customer,
        owners.map((o) => o.row),
        documents,
      );
      const now = this.clock.now();
      const row: VerificationEntity = {
        id: newUuid(),
        platformId,
        customerId,
        status: errors.length ? 'RESOLVE_ERRORS' : 'IN_PROGRESS',
        errors,
        createdAt: now,
        updatedAt: now,
      };
      await m.insert(VerificationEntity, row);
      noteAuditResource(formatId('Verification', row.id));
      if (!errors.length) {
        await this.documents.markSubmitted(
          m,
          platformId,
          documents.map((d) => d.id),
        );
        await this.customers.applyKycStatus(m, platformId, customer, 'PENDING');
        await this.owners.setKycStatus(m, platformId, customerId, 'PENDING');
      }
      const view = renderVerification(row);
      await this.outbox.write(m, verificationEvent(platformId, view));
      return view;
    });
  }

  async list(platformId: string, query: ListVerificationsQuery): Promise<Page<Verification>> {
    const qb = this.tx.manager
      .createQueryBuilder(VerificationEntity, 'v')
      .where('v.platform_id = :platformId', { platformId });
    if (query.customerId !== undefined)
      qb.andWhere('v.customer_id = :customerId', { customerId: parseId('Customer', query.customerId) });
    if (query.verificationStatus !== undefined) qb.andWhere('v.status = :status', { status: query.verificationStatus });
    return paginate(qb, query, renderVerification);
  }

  async get(platformId: string, id: string): Promise<Verification> {
    return renderVerification(
      await findOwned(this.tx.manager, VerificationEntity, platformId, { id }, () => notFound(id)),
    );
  }

  /**
   * Sandbox: the provider's outcome for an IN_PROGRESS (or PENDING_MANUAL_REVIEW) verification.
   * APPROVED / REJECTED set the customer's and its beneficial owners' status (CUSTOMER.KYC_* or
   * KYB_*); every outcome writes its VERIFICATION.* event. Another state: 409 CONFLICT.
   */
  async complete(platformId: string, id: string, outcome: SandboxOutcome): Promise<Verification> {
    return this.tx.run(async (m) => {
      const row = await findOwned(m, VerificationEntity, platformId, { id }, () => notFound(id));
      const customer = await this.customers.requireActive(m, platformId, row.customerId, 'update');
      const locked = await findOwned(m, VerificationEntity, platformId, { id }, () => notFound(id), 'update');
      return this.decide(m, platformId, locked, customer, outcome);
    });
  }

  private async decide(
    m: EntityManager,
    platformId: string,
    row: VerificationEntity,
    customer: CustomerEntity,
    outcome: SandboxOutcome,
  ): Promise<Verification> {
    if (row.status !== 'IN_PROGRESS' && row.status !== 'PENDING_MANUAL_REVIEW')
      throw new ApiError(
        'CONFLICT',
        `Verification ${formatId('Verification', row.id)} is ${row.status}: only IN_PROGRESS or PENDING_MANUAL_REVIEW can be decided`,
      );
    if (row.status === outcome) return renderVerification(row);
    const now = this.clock.now();
    const errors =
      outcome === 'REJECTED'
        ? [
            {
              resourceId: formatId('Customer', row.customerId),
              type: 'APPLICANT_REJECTED',
              reason: 'The verification provider rejected the applicant',
            },
          ]
        : [];
    const next: VerificationEntity = { ...row, status: outcome, errors, updatedAt: now };
    await m.update(VerificationEntity, { id: row.id, platformId }, { status: outcome, errors: errors, updatedAt: now });
    noteAuditResource(formatId('Verification', row.id));
    noteAuditResource(formatId('Customer', row.customerId));
    const kyc = KYC_OF[outcome];
    if (kyc) {
      await this.customers.applyKycStatus(m, platformId, customer, kyc);
      await this.owners.setKycStatus(m, platformId, row.customerId, kyc);
    }
    if (outcome === 'APPROVED') {
      const documents = await this.documents.ofCustomer(m, platformId, row.customerId);
      await this.documents.acceptPending(
        m,
        platformId,
        documents.map((d) => d.id),
      );
    }
    const view = renderVerification(next);
    await this.outbox.write(m, verificationEvent(platformId, view));
    return view;
  }

  /**
   * A hosted KYC link for an existing customer (reference POST /customers/{customerId}/kyc-link).
   * The token is 32 random bytes; only its SHA-256 is kept. Creating one changes no status.
   */
  async createKycLink(
    platformId: string,
    customerId: string,
    baseUrl: string,
    redirectUri: string | undefined,
  ): Promise<KycLinkResponse> {
    return this.tx.run(async (m) => {
      requireContactVerified(await this.customers.requireActive(m, platformId, customerId));
      const token = randomBytes(32).toString('base64url');
      const now = this.clock.now();
      const expiresAt = later(now, KYC_LINK_TTL_MS);
      await addRoute(m, 'kyc_link', routingHash(token), platformId);
      await m.insert(KycLinkEntity, {
        id: newUuid(),
        platformId,
        customerId,
        tokenHash: hashToken(token),
        redirectUri: redirectUri ?? null,
        expiresAt,
        usedAt: null,
        createdAt: now,
      });
      noteAuditResource(formatId('Customer', customerId));
      return { kycUrl: `${baseUrl}/sandbox/kyc/${token}`, expiresAt: expiresAt.toISOString(), provider: 'SUMSUB' };
    });
  }

  /** The hosted page's link: unknown, used or expired is 404 NOT_FOUND. */
  async openKycLink(token: string): Promise<{ link: KycLinkEntity; customer: CustomerEntity }> {
    return this.tx.run(async (m) => {
      const link = await this.usableLink(m, token);
      const customer = await this.customers.requireActive(m, link.platformId, link.customerId).catch(() => {
        throw invalidLink();
      });
      return { link, customer };
    });
  }

  /**
   * The hosted flow completed with an outcome: the link is used up, and a verification records the
   * outcome with the same events as POST /verifications then the provider's decision.
   */
  async completeKycLink(token: string, outcome: 'APPROVED' | 'REJECTED'): Promise<{ redirectUri: string | null }> {
    return this.tx.run(async (m) => {
      const link = await this.usableLink(m, token, true);
      noteAuditActor({ platformId: link.platformId }); // a public page: the event goes on the link's platform
      const customer = await this.customers.requireActive(m, link.platformId, link.customerId, 'update');
      await m.update(KycLinkEntity, { id: link.id, platformId: link.platformId }, { usedAt: this.clock.now() });
      const now = this.clock.now();
      const row: VerificationEntity = {
        id: newUuid(),
        platformId: link.platformId,
        customerId: link.customerId,
        status: 'IN_PROGRESS',
        errors: [],
        createdAt: now,
        updatedAt: now,
      };
      await m.insert(VerificationEntity, row);
      noteAuditResource(formatId('Verification', row.id));
      noteAuditResource(formatId('Customer', row.customerId));
      await this.outbox.write(m, verificationEvent(link.platformId, renderVerification(row)));
      await this.decide(m, link.platformId, row, customer, outcome);
      return { redirectUri: link.redirectUri };
    });
  }

  /** The token comes before its platform: `routing_keys` (kind `kyc_link`) names it, then the read is pinned. */
  private async usableLink(m: EntityManager, token: string, lock = false): Promise<KycLinkEntity> {
    const platformId = await routeOf(m, 'kyc_link', routingHash(token));
    if (platformId === null) throw invalidLink();
    const link = await m.findOne(KycLinkEntity, {
      where: { tokenHash: hashToken(token), platformId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!link) throw invalidLink();
    // expiry on the link's platform's clock (a public page: the platform is known only now)
    enterPlatformClock(this.clockOffsets, link.platformId);
    if (link.usedAt !== null || link.expiresAt.getTime() <= this.clock.now().getTime()) throw invalidLink();
    return link;
  }
}

export function invalidLink(): ApiError {
  return new ApiError('NOT_FOUND', 'This verification link is unknown, already used or expired');
}
