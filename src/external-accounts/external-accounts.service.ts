import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager, IsNull, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { isRecord } from '../common/objects.js';
import { validateBody } from '../common/validate-body.js';
import { findOwned, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { CustomersService } from '../customers/customers.service.js';
import {
  CustomerExternalAccountCreateRequest,
  ExternalAccount,
  ListCustomerExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  PlatformExternalAccountCreateRequest,
} from './external-account.dto.js';
import { ExternalAccountEntity, ExternalAccountStatus } from './external-account.entity.js';
import { renderExternalAccount } from './external-account.render.js';
import {
  accountIdentity,
  AccountInfo,
  canonicalAccountType,
  initialBeneficiaryVerificationStatus,
  isSelfCustodyWallet,
  validateAccountInfo,
} from './variants/index.js';

export type Owner = { kind: 'platform' } | { kind: 'customer'; customerId?: string };

/**
 * External accounts of the platform and of its customers. Duplicate detection is the database's
 * job (partial unique indexes), so concurrent identical creates give one 201 and 409s that name
 * the winner; the service only turns a unique violation into the spec's 409 shape.
 */
@Injectable()
export class ExternalAccountsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly config: PlatformConfigService,
    private readonly customers: CustomersService,
    private readonly clock: Clock,
  ) {}

  createForPlatform(platformId: string, body: unknown): Promise<ExternalAccount> {
    const { value, errors } = validateBody(PlatformExternalAccountCreateRequest, body);
    return this.create(platformId, value, null, false, errors, body);
  }

  createForCustomer(platformId: string, body: unknown): Promise<ExternalAccount> {
    const { value, errors } = validateBody(CustomerExternalAccountCreateRequest, body);
    // When customerId is malformed its FieldError is in `errors` and nothing is written.
    const customerUuid = typeof value.customerId === 'string' ? (parseId('Customer', value.customerId) ?? '') : '';
    return this.create(platformId, value, customerUuid, value.defaultUmaDepositAccount === true, errors, body);
  }

  private async create(
    platformId: string,
    request: PlatformExternalAccountCreateRequest,
    customerId: string | null,
    makeDefault: boolean,
    dtoErrors: FieldError[],
    raw: unknown,
  ): Promise<ExternalAccount> {
    const rawInfo = (raw as { accountInfo?: unknown } | null)?.accountInfo;
    const currency = typeof request.currency === 'string' ? request.currency : undefined;
    const errors = [...dtoErrors, ...validateAccountInfo(rawInfo, { currency })];
    const info = rawInfo as AccountInfo;
    const platformAccountId = this.platformAccountId(request, info, errors);

    return this.tx.run(async (m) => {
      const settings = await this.config.load(m, platformId);
      const accountType = errors.length ? '' : canonicalAccountType(String(info.accountType));
      const selfCustody = !errors.length && isSelfCustodyWallet(accountType, info);
      if (selfCustody && settings.counterpartyRequirements && request.ownershipType === undefined) {
        errors.push(
          fieldError(
            'ownershipType',
            'ownershipType is required for self-custody wallets on this platform (counterparty requirements)',
            { enum: ['FIRST_PARTY', 'THIRD_PARTY'] },
          ),
        );
      }
      if (errors.length) throw invalidInput(errors);
      // Locks the customer row: FOR UPDATE when the default UMA account moves, serialising those moves.
      if (customerId !== null)
        await this.customers.requireActive(m, platformId, customerId, makeDefault ? 'update' : 'share');

      const status: ExternalAccountStatus =
        selfCustody && settings.counterpartyRequirements ? 'PENDING_OWNERSHIP_VERIFICATION' : 'ACTIVE';
      if (makeDefault && customerId) {
        // The customer row lock taken above serialises default moves for this customer.
        await m.update(
          ExternalAccountEntity,
          { customerId, defaultUmaDepositAccount: true, deletedAt: IsNull() },
          { defaultUmaDepositAccount: false, updatedAt: this.clock.now() },
        );
      }
      const now = this.clock.now();
      const row = m.create(ExternalAccountEntity, {
        id: newUuid(),
        platformId,
        customerId,
        platformAccountId,
        ownershipType: request.ownershipType ?? null,
        currency: request.currency,
        status,
        defaultUmaDepositAccount: makeDefault,
        beneficiaryVerificationStatus: initialBeneficiaryVerificationStatus(accountType),
        beneficiaryVerifiedData: null,
        accountType,
        accountInfo: info,
        identity: accountIdentity(info),
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
      await this.insertOrConflict(m, row);
      return renderExternalAccount(row);
    });
  }

  /** The spec's example carries platformAccountId inside accountInfo; the reference has it top level. */
  private platformAccountId(request: PlatformExternalAccountCreateRequest, info: unknown, errors: FieldError[]) {
    const top = typeof request.platformAccountId === 'string' ? request.platformAccountId : undefined;
    const nested = isRecord(info) && typeof info.platformAccountId === 'string' ? info.platformAccountId : undefined;
    if (top !== undefined && nested !== undefined && top !== nested) {
      errors.push(
        fieldError(
          'accountInfo.platformAccountId',
          'accountInfo.platformAccountId differs from platformAccountId; send one of them',
        ),
      );
    }
    return top ?? nested ?? null;
  }

  /**
   * `INSERT ... ON CONFLICT DO NOTHING`: when a live equivalent account exists (it may have
   * committed a moment ago in a racing request, which PostgreSQL waits for), nothing is inserted
   * and the 409 names that account when it is ours. No statement fails, so the surrounding
   * transaction (and an idempotency record in it) stays usable.
   */
  private async insertOrConflict(m: EntityManager, row: ExternalAccountEntity): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await m
        .createQueryBuilder()
        .insert()
        .into(ExternalAccountEntity)
        .values(row as QueryDeepPartialEntity<ExternalAccountEntity>)
        .orIgnore()
        .returning(['id'])
        .execute();
      if ((result.raw as unknown[]).length === 1) return;
      const conflict = await this.duplicateError(m, row);
      if (conflict) throw conflict;
      // The conflicting row vanished (its transaction rolled back or it was deleted): try once more.
    }
    throw new ApiError('DUPLICATE_EXTERNAL_ACCOUNT', 'An equivalent external account already exists');
  }

  private async duplicateError(m: EntityManager, row: ExternalAccountEntity): Promise<ApiError | null> {
    const byPlatformAccountId =
      row.platformAccountId === null
        ? null
        : await m.findOne(ExternalAccountEntity, {
            where: { platformAccountId: row.platformAccountId, deletedAt: IsNull() },
          });
    const existing =
      byPlatformAccountId ??
      (await m.findOne(ExternalAccountEntity, {
        where: {
          platformId: row.platformId,
          customerId: row.customerId ?? IsNull(),
          identity: row.identity,
          deletedAt: IsNull(),
        },
      }));
    if (!existing) return null;
    const reason = 'An equivalent external account already exists';
    if (existing.platformId !== row.platformId) return new ApiError('DUPLICATE_EXTERNAL_ACCOUNT', reason);
    const details: Record<string, unknown> = { externalAccountId: formatId('ExternalAccount', existing.id) };
    if (existing.platformAccountId !== null) details.platformAccountId = existing.platformAccountId;
    return new ApiError('DUPLICATE_EXTERNAL_ACCOUNT', reason, { details });
  }

  async get(platformId: string, owner: Owner, id: string): Promise<ExternalAccount> {
    return renderExternalAccount(await this.find(this.tx.manager, platformId, owner, id));
  }

  async list(
    platformId: string,
    owner: Owner,
    query: ListPlatformExternalAccountsQuery | ListCustomerExternalAccountsQuery,
  ): Promise<Page<ExternalAccount>> {
    const qb = this.tx.manager
      .createQueryBuilder(ExternalAccountEntity, 'a')
      .where('a.platform_id = :platformId AND a.deleted_at IS NULL', { platformId });
    if (owner.kind === 'platform') qb.andWhere('a.customer_id IS NULL');
    else if (owner.customerId) qb.andWhere('a.customer_id = :customerId', { customerId: owner.customerId });
    else qb.andWhere('a.customer_id IS NOT NULL');
    if (query.currency !== undefined) qb.andWhere('a.currency = :currency', { currency: query.currency });
    return paginate(qb, query, renderExternalAccount);
  }

  /** Soft delete: the row stays for audit; it no longer blocks re-creating the same account. */
  async delete(platformId: string, owner: Owner, id: string): Promise<void> {
    await this.tx.run(async (m) => {
      const row = await this.find(m, platformId, owner, id, 'update');
      const now = this.clock.now();
      await m.update(
        ExternalAccountEntity,
        { id: row.id },
        { deletedAt: now, updatedAt: now, defaultUmaDepositAccount: false },
      );
    });
  }

  private async find(
    m: EntityManager,
    platformId: string,
    owner: Owner,
    id: string,
    lock?: RowLock,
  ): Promise<ExternalAccountEntity> {
    return findOwned(
      m,
      ExternalAccountEntity,
      platformId,
      { id, deletedAt: IsNull(), customerId: owner.kind === 'platform' ? IsNull() : Not(IsNull()) },
      () => new ApiError('ACCOUNT_NOT_FOUND', `External account ${formatId('ExternalAccount', id)} not found`),
      lock,
    );
  }
}
