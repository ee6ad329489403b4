import { Injectable } from '@nestjs/common';
import { noteAuditResource } from '../audit/audit-trail.js';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { type Page, paginate } from '../common/pagination.js';
import { findOwned, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { CustomersService } from '../customers/customers.service.js';
import { plain } from '../customers/customer-body.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import type {
  BeneficialOwner,
  BeneficialOwnerCreateRequest,
  BeneficialOwnerPersonalInfoView,
  BeneficialOwnerUpdateRequest,
  ListBeneficialOwnersQuery,
} from './beneficial-owner.dto.js';
import { BeneficialOwnerEntity } from './beneficial-owner.entity.js';

/** The identifier as answered: every character but the last four masked. */
export function maskIdentifier(identifier: string | null): string {
  if (identifier === null) return '';
  const keep = identifier.length > 4 ? identifier.slice(-4) : '';
  return `${'*'.repeat(Math.max(identifier.length - keep.length, 4))}${keep}`;
}

export function renderBeneficialOwner(row: BeneficialOwnerEntity, identifier: string | null): BeneficialOwner {
  return {
    id: formatId('BeneficialOwner', row.id),
    customerId: formatId('Customer', row.customerId),
    roles: row.roles,
    ownershipPercentage: row.ownershipPercentage,
    personalInfo: { ...row.personalInfo, identifier: maskIdentifier(identifier) } as BeneficialOwnerPersonalInfoView,
    kycStatus: row.kycStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = (id: string) =>
  new ApiError('NOT_FOUND', `Beneficial owner ${formatId('BeneficialOwner', id)} not found`);

/**
 * Beneficial owners of BUSINESS customers (the reference's /beneficial-owners). The owner of the
 * `beneficial_owners` table. The identification number is sealed by SecretBox and answered masked.
 */
@Injectable()
export class BeneficialOwnersService {
  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'beneficial_owners.identifier',
      table: 'beneficial_owners',
      keys: ['platform_id', 'id'],
      value: 'identifier',
      assign: (param) => `identifier = ${param}`,
      where: 'identifier IS NOT NULL',
    });
  }

  /** For other areas (documents, verifications): the platform's beneficial owner, or 404. */
  find(m: EntityManager, platformId: string, id: string, lock?: RowLock): Promise<BeneficialOwnerEntity> {
    return findOwned(m, BeneficialOwnerEntity, platformId, { id }, () => notFound(id), lock);
  }

  /** A business's beneficial owners, oldest first, with their identifiers opened (for verification rules). */
  async ofCustomer(
    m: EntityManager,
    platformId: string,
    customerId: string,
  ): Promise<Array<{ row: BeneficialOwnerEntity; identifier: string | null }>> {
    const rows = await m
      .createQueryBuilder(BeneficialOwnerEntity, 'b')
      .addSelect('b.identifier')
      .where('b.platform_id = :platformId AND b.customer_id = :customerId', { platformId, customerId })
      .orderBy('b.id', 'ASC')
      .getMany();
    return rows.map((row) => ({ row, identifier: this.open(row.identifier) }));
  }

  /** Sets every beneficial owner of a business to a KYC status (a verification's outcome). */
  async setKycStatus(m: EntityManager, platformId: string, customerId: string, kycStatus: string): Promise<void> {
    await m.query(
      'UPDATE beneficial_owners SET kyc_status = $3, updated_at = $4 WHERE platform_id = $1 AND customer_id = $2',
      [platformId, customerId, kycStatus, this.clock.now()],
    );
  }

  async create(platformId: string, body: BeneficialOwnerCreateRequest): Promise<BeneficialOwner> {
    const customerId = parseId('Customer', body.customerId)!;
    return this.tx.run(async (m) => {
      const customer = await this.customers.requireActive(m, platformId, customerId);
      if (customer.customerType !== 'BUSINESS')
        throw invalidInput([
          fieldError('customerId', 'beneficial owners belong to a BUSINESS customer', { enum: ['BUSINESS'] }),
        ]);
      const { identifier, ...personalInfo } = plain(body.personalInfo);
      const now = this.clock.now();
      const row = m.create(BeneficialOwnerEntity, {
        id: newUuid(),
        platformId,
        customerId,
        roles: body.roles,
        ownershipPercentage: body.ownershipPercentage,
        personalInfo,
        identifier: this.box.seal(String(identifier)),
        kycStatus: 'UNVERIFIED',
        createdAt: now,
        updatedAt: now,
      });
      await m.insert(BeneficialOwnerEntity, row as never);
      noteAuditResource(formatId('BeneficialOwner', row.id));
      return renderBeneficialOwner(row, String(identifier));
    });
  }

  async list(platformId: string, query: ListBeneficialOwnersQuery): Promise<Page<BeneficialOwner>> {
    const customerId = parseId('Customer', query.customerId)!;
    const qb = this.tx.manager
      .createQueryBuilder(BeneficialOwnerEntity, 'b')
      .addSelect('b.identifier')
      .where('b.platform_id = :platformId AND b.customer_id = :customerId', { platformId, customerId });
    return paginate(qb, query, (row) => renderBeneficialOwner(row, this.open(row.identifier)));
  }

  async get(platformId: string, id: string): Promise<BeneficialOwner> {
    const row = await this.withIdentifier(this.tx.manager, platformId, id);
    return renderBeneficialOwner(row, this.open(row.identifier));
  }

  async update(platformId: string, id: string, body: BeneficialOwnerUpdateRequest): Promise<BeneficialOwner> {
    return this.tx.run(async (m) => {
      const row = await this.withIdentifier(m, platformId, id, 'update');
      let identifier = this.open(row.identifier);
      const patch = body.personalInfo ? plain(body.personalInfo) : {};
      if (typeof patch.identifier === 'string') identifier = patch.identifier;
      delete patch.identifier;
      const now = this.clock.now();
      const next: BeneficialOwnerEntity = {
        ...row,
        roles: body.roles ?? row.roles,
        ownershipPercentage: body.ownershipPercentage ?? row.ownershipPercentage,
        personalInfo: { ...row.personalInfo, ...patch },
        updatedAt: now,
      };
      await m.update(
        BeneficialOwnerEntity,
        { id: row.id, platformId },
        {
          roles: next.roles,
          ownershipPercentage: next.ownershipPercentage,
          personalInfo: next.personalInfo as never,
          identifier: identifier === null ? null : this.box.seal(identifier),
          updatedAt: now,
        },
      );
      noteAuditResource(formatId('BeneficialOwner', row.id));
      return renderBeneficialOwner(next, identifier);
    });
  }

  private async withIdentifier(
    m: EntityManager,
    platformId: string,
    id: string,
    lock?: RowLock,
  ): Promise<BeneficialOwnerEntity> {
    const qb = m
      .createQueryBuilder(BeneficialOwnerEntity, 'b')
      .addSelect('b.identifier')
      .where('b.platform_id = :platformId AND b.id = :id', { platformId, id });
    if (lock) qb.setLock(lock === 'update' ? 'pessimistic_write' : 'pessimistic_read');
    const row = await qb.getOne();
    if (!row) throw notFound(id);
    return row;
  }

  private open(sealed: string | null): string | null {
    return sealed === null ? null : this.box.open(sealed);
  }
}
