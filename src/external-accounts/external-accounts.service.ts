import { AppConfig } from '../config/app-config.js';
import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull, Not } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { isRecord } from '../common/objects.js';
import { validateBody } from '../common/validate-body.js';
import { findOwned, type RowLock } from '../database/queries.js';
import { changeStatement, TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import {
  IDEMPOTENCY_GATE,
  IdempotencyService,
  type PriorRecordColumns,
  idempotentChange,
} from '../idempotency/idempotency.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { counterpartyRequirementsSql, PlatformConfigService } from '../platform-config/platform-config.service.js';
import { CustomersService } from '../customers/customers.service.js';
import {
  CustomerExternalAccountCreateRequest,
  ExternalAccount,
  ListCustomerExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  PlatformExternalAccountCreateRequest,
} from './external-account.dto.js';
import { ExternalAccountEntity, ExternalAccountStatus } from './external-account.entity.js';
import { externalAccountStatusUpdated } from './external-account-events.js';
import { renderExternalAccount } from './external-account.render.js';
import {
  accountIdentity,
  AccountInfo,
  canonicalAccountType,
  initialBeneficiaryVerificationStatus,
  isSelfCustodyWallet,
  validateAccountInfo,
} from './variants/index.js';
import { noteAuditResource } from '../audit/audit-trail.js';
import { initialBankValidation, statusAfterWindow } from './bank-validation.js';

const ownershipTypeRequired: FieldError = fieldError(
  'ownershipType',
  'ownershipType is required for self-custody wallets on this platform (counterparty requirements)',
  { enum: ['FIRST_PARTY', 'THIRD_PARTY'] },
);

/**
 * $6: a self-custody wallet; with counterparty requirements it starts pending, and needs $4
 * (ownershipType). Otherwise the status is `$x` (ACTIVE, or PENDING while a US bank account's
 * micro-entry window runs), with `$x+1` and `$x+2` the bank validation's outcome and due time.
 */
const insertPlatformAccountSql = (gate: string, x: number) => `
  INSERT INTO external_accounts (id, platform_id, customer_id, platform_account_id, ownership_type, currency, status,
    default_uma_deposit_account, beneficiary_verification_status, beneficiary_verified_data, account_type,
    account_info, identity, created_at, updated_at, deleted_at, bank_validation, bank_validation_due_at)
  SELECT $1::uuid, $2::uuid, NULL, $3::text, $4::text, $5::text,
    CASE WHEN $6::boolean AND s.required THEN 'PENDING_OWNERSHIP_VERIFICATION' ELSE $${x}::text END,
    false, $7::text, NULL, $8::text, $9::jsonb, $10::text, $11::timestamptz, $11::timestamptz, NULL,
    $${x + 1}::text, $${x + 2}::timestamptz
  FROM (SELECT ${counterpartyRequirementsSql('$2::uuid')} AS required) s
  WHERE ${gate}s.required IS NOT NULL AND NOT ($6::boolean AND s.required AND $4::text IS NULL)
  ON CONFLICT DO NOTHING
  RETURNING status`;
export const INSERT_PLATFORM_ACCOUNT_SQL = insertPlatformAccountSql('', 12);
/** The same as a ChangeStatement (TransactionService.change: the audit event rides in it). */
const INSERT_PLATFORM_ACCOUNT = changeStatement(
  `effect AS (${INSERT_PLATFORM_ACCOUNT_SQL})`,
  'SELECT status FROM effect',
  'effect',
);
/**
 * The same with an Idempotency-Key: the record is written by the same statement; $12-$16 are the
 * key's, $17 and $18 the sealed response with the initial status and as
 * PENDING_OWNERSHIP_VERIFICATION, $19-$21 the status and bank validation.
 */
export const INSERT_PLATFORM_ACCOUNT_IDEMPOTENT = idempotentChange(
  insertPlatformAccountSql(`${IDEMPOTENCY_GATE} AND `, 19),
  12,
  `CASE WHEN effect.status = 'PENDING_OWNERSHIP_VERIFICATION' THEN $18::jsonb ELSE $17::jsonb END`,
);

const FIND_COLUMNS = `id, platform_id, customer_id, platform_account_id, ownership_type, currency, status,
  default_uma_deposit_account, beneficiary_verification_status, beneficiary_verified_data, account_type, account_info,
  identity, created_at, updated_at, deleted_at`;
export const FIND_PLATFORM_ACCOUNT_SQL = `SELECT ${FIND_COLUMNS} FROM external_accounts
  WHERE id = $1 AND platform_id = $2 AND deleted_at IS NULL AND customer_id IS NULL`;
const FIND_CUSTOMER_ACCOUNT_SQL = `SELECT ${FIND_COLUMNS} FROM external_accounts
  WHERE id = $1 AND platform_id = $2 AND deleted_at IS NULL AND customer_id IS NOT NULL`;
/** One customer's account (an agent's view: another customer's account is not found). */
const FIND_ONE_CUSTOMERS_ACCOUNT_SQL = `SELECT ${FIND_COLUMNS} FROM external_accounts
  WHERE id = $1 AND platform_id = $2 AND deleted_at IS NULL AND customer_id = $3`;

interface ExternalAccountRow {
  id: string;
  platform_id: string;
  customer_id: string | null;
  platform_account_id: string | null;
  ownership_type: ExternalAccountEntity['ownershipType'];
  currency: string;
  status: ExternalAccountStatus;
  default_uma_deposit_account: boolean;
  beneficiary_verification_status: ExternalAccountEntity['beneficiaryVerificationStatus'];
  beneficiary_verified_data: ExternalAccountEntity['beneficiaryVerifiedData'];
  account_type: string;
  account_info: AccountInfo;
  identity: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

function fromRow(r: ExternalAccountRow): ExternalAccountEntity {
  return Object.assign(new ExternalAccountEntity(), {
    id: r.id,
    platformId: r.platform_id,
    customerId: r.customer_id,
    platformAccountId: r.platform_account_id,
    ownershipType: r.ownership_type,
    currency: r.currency,
    status: r.status,
    defaultUmaDepositAccount: r.default_uma_deposit_account,
    beneficiaryVerificationStatus: r.beneficiary_verification_status,
    beneficiaryVerifiedData: r.beneficiary_verified_data,
    accountType: r.account_type,
    accountInfo: r.account_info,
    identity: r.identity,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  });
}

/** Whose accounts: the platform's own, every customer's, or (`customerId`) one customer's. */
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
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyService,
    private readonly appConfig: AppConfig,
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

    const accountType = errors.length ? '' : canonicalAccountType(String(info.accountType));
    const selfCustody = !errors.length && isSelfCustodyWallet(accountType, info);
    if (errors.length) throw invalidInput(errors);
    if (customerId === null)
      return this.createForPlatformOwner(platformId, request, info, platformAccountId, accountType, selfCustody);

    return this.tx.run(async (m) => {
      const settings = await this.config.load(m, platformId);
      if (selfCustody && settings.counterpartyRequirements && request.ownershipType === undefined) {
        throw invalidInput([ownershipTypeRequired]);
      }
      // Locks the customer row: FOR UPDATE when the default UMA account moves, serialising those moves.
      await this.customers.requireActive(m, platformId, customerId, makeDefault ? 'update' : 'share');

      const status: ExternalAccountStatus =
        selfCustody && settings.counterpartyRequirements ? 'PENDING_OWNERSHIP_VERIFICATION' : 'ACTIVE';
      if (makeDefault) {
        // The customer row lock taken above serialises default moves for this customer.
        await m.update(
          ExternalAccountEntity,
          { platformId, customerId, defaultUmaDepositAccount: true, deletedAt: IsNull() },
          { defaultUmaDepositAccount: false, updatedAt: this.clock.now() },
        );
      }
      const row = this.newRow(m, platformId, customerId, request, info, platformAccountId, accountType, {
        status,
        defaultUmaDepositAccount: makeDefault,
      });
      await this.insertOrConflict(m, row);
      noteAuditResource(formatId('ExternalAccount', row.id));
      return renderExternalAccount(row);
    });
  }

  /** A new account row as both create paths insert it (`status` and the default flag are theirs). */
  private newRow(
    m: EntityManager,
    platformId: string,
    customerId: string | null,
    request: PlatformExternalAccountCreateRequest,
    info: AccountInfo,
    platformAccountId: string | null,
    accountType: string,
    initial: { status: ExternalAccountStatus; defaultUmaDepositAccount: boolean },
  ): ExternalAccountEntity {
    const now = this.clock.now();
    const bank = initialBankValidation(accountType, info, now, this.appConfig.SANDBOX);
    return m.create(ExternalAccountEntity, {
      id: newUuid(),
      platformId,
      customerId,
      platformAccountId,
      ownershipType: request.ownershipType ?? null,
      currency: request.currency,
      ...initial,
      status: bank?.status ?? initial.status,
      bankValidation: bank?.bankValidation ?? null,
      bankValidationDueAt: bank?.bankValidationDueAt ?? null,
      ownershipChallengeMessage: null,
      ownershipChallengeExpiresAt: null,
      beneficiaryVerificationStatus: initialBeneficiaryVerificationStatus(accountType),
      beneficiaryVerifiedData: null,
      accountType,
      accountInfo: info,
      identity: accountIdentity(info),
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
  }

  /**
   * The platform's own account in one fixed statement, no explicit transaction (it joins the
   * idempotency transaction when there is one): the counterparty-requirements flag is read inside
   * the INSERT, duplicates are `ON CONFLICT DO NOTHING`. Nothing inserted means a live duplicate,
   * or a self-custody wallet without the ownershipType this platform requires: told apart after.
   */
  private async createForPlatformOwner(
    platformId: string,
    request: PlatformExternalAccountCreateRequest,
    info: AccountInfo,
    platformAccountId: string | null,
    accountType: string,
    selfCustody: boolean,
  ): Promise<ExternalAccount> {
    const m = this.tx.manager;
    const row = this.newRow(m, platformId, null, request, info, platformAccountId, accountType, {
      status: 'ACTIVE',
      defaultUmaDepositAccount: false,
    });
    const params = [
      row.id,
      platformId,
      row.platformAccountId,
      row.ownershipType,
      row.currency,
      selfCustody,
      row.beneficiaryVerificationStatus,
      row.accountType,
      JSON.stringify(row.accountInfo),
      row.identity,
      row.createdAt,
    ];
    const bankParams = [row.status, row.bankValidation, row.bankValidationDueAt];
    const insert = this.platformInsert(params, bankParams, row, selfCustody);
    // Named before the one-statement insert: the audit event is written in its transaction.
    noteAuditResource(formatId('ExternalAccount', row.id));
    for (let attempt = 0; attempt < 2; attempt++) {
      const status = await insert();
      if (status !== null) {
        row.status = status;
        return renderExternalAccount(row);
      }
      if (selfCustody && row.ownershipType === null && (await this.config.counterpartyRequirements(m, platformId)))
        throw invalidInput([ownershipTypeRequired]);
      const conflict = await this.duplicateError(m, row);
      if (conflict) throw conflict;
      // The conflicting row vanished (its transaction rolled back or it was deleted): try once more.
    }
    throw new ApiError('DUPLICATE_EXTERNAL_ACCOUNT', 'An equivalent external account already exists');
  }

  /**
   * The platform account's INSERT, answering the status it was created with, or null when nothing
   * was inserted. With an Idempotency-Key it also writes the request's record (the response sealed
   * for either initial status), or finds the key's earlier record (thrown to the interceptor).
   */
  private platformInsert(
    params: unknown[],
    bankParams: unknown[],
    row: ExternalAccountEntity,
    selfCustody: boolean,
  ): () => Promise<ExternalAccountStatus | null> {
    const keyed = this.idempotency.statement();
    if (!keyed) {
      return async () => {
        const [inserted] = await this.tx.change<Array<{ status: ExternalAccountStatus }>>(
          INSERT_PLATFORM_ACCOUNT,
          [...params, ...bankParams],
          (rows) => rows.length > 0,
        );
        return inserted?.status ?? null;
      };
    }
    const active = keyed.seal(renderExternalAccount(row));
    const pending = selfCustody
      ? keyed.seal(renderExternalAccount({ ...row, status: 'PENDING_OWNERSHIP_VERIFICATION' }))
      : active;
    const keyedParams = [...params, ...keyed.params, active, pending, ...bankParams];
    return async () => {
      const [answer] = await this.tx.change<Array<PriorRecordColumns & { status: ExternalAccountStatus | null }>>(
        INSERT_PLATFORM_ACCOUNT_IDEMPOTENT,
        keyedParams,
        (rows) => rows[0]?.status != null,
      );
      keyed.settle(answer, answer.status !== null);
      return answer.status;
    };
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
            where: { platformId: row.platformId, platformAccountId: row.platformAccountId, deletedAt: IsNull() },
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
    const details: Record<string, unknown> = { externalAccountId: formatId('ExternalAccount', existing.id) };
    if (existing.platformAccountId !== null) details.platformAccountId = existing.platformAccountId;
    return new ApiError('DUPLICATE_EXTERNAL_ACCOUNT', reason, { details });
  }

  /** One fixed statement. */
  async get(platformId: string, owner: Owner, id: string): Promise<ExternalAccount> {
    const [sql, params] =
      owner.kind === 'platform'
        ? [FIND_PLATFORM_ACCOUNT_SQL, [id, platformId]]
        : owner.customerId
          ? [FIND_ONE_CUSTOMERS_ACCOUNT_SQL, [id, platformId, owner.customerId]]
          : [FIND_CUSTOMER_ACCOUNT_SQL, [id, platformId]];
    const [row] = await this.tx.query<ExternalAccountRow[]>(sql, params);
    if (!row) throw new ApiError('ACCOUNT_NOT_FOUND', `External account ${formatId('ExternalAccount', id)} not found`);
    return renderExternalAccount(fromRow(row));
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
      if (row.trustedAt)
        throw new ApiError(
          'BENEFICIARY_TRUSTED',
          `External account ${formatId('ExternalAccount', id)} is a trusted beneficiary: untrust it (untrust, then confirm) before deleting it`,
        );
      const now = this.clock.now();
      await m.update(
        ExternalAccountEntity,
        { id: row.id, platformId: row.platformId },
        { deletedAt: now, updatedAt: now, defaultUmaDepositAccount: false },
      );
    });
  }

  /**
   * A live customer external account of the platform, locked for the rest of `m`'s transaction
   * (the SCA trust flow reads and marks it); 404 ACCOUNT_NOT_FOUND otherwise.
   */
  findCustomerAccount(m: EntityManager, platformId: string, id: string): Promise<ExternalAccountEntity> {
    return this.find(m, platformId, { kind: 'customer' }, id, 'update');
  }

  /** Marks (or unmarks) a customer external account as a trusted beneficiary, in `m`'s transaction. */
  async setTrusted(
    m: EntityManager,
    account: Pick<ExternalAccountEntity, 'id' | 'platformId'>,
    trusted: boolean,
  ): Promise<void> {
    const now = this.clock.now();
    await m.update(
      ExternalAccountEntity,
      { id: account.id, platformId: account.platformId },
      { trustedAt: trusted ? now : null, updatedAt: now },
    );
  }

  /**
   * Moves a live account (the platform's or a customer's) to `status`, as a verification provider
   * would (sandbox). A transition writes `EXTERNAL_ACCOUNT.STATUS_UPDATED` in the same transaction;
   * the current status again changes nothing and notifies nobody. 404 ACCOUNT_NOT_FOUND otherwise.
   */
  async setStatus(platformId: string, id: string, status: ExternalAccountStatus): Promise<ExternalAccount> {
    return this.tx.run(async (m) => {
      const row = await m.findOne(ExternalAccountEntity, {
        where: { id, platformId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row)
        throw new ApiError('ACCOUNT_NOT_FOUND', `External account ${formatId('ExternalAccount', id)} not found`);
      if (row.status === status) return renderExternalAccount(row);
      const now = this.clock.now();
      await m.update(ExternalAccountEntity, { id: row.id, platformId: row.platformId }, { status, updatedAt: now });
      const account = renderExternalAccount({ ...row, status, updatedAt: now });
      await this.outbox.write(m, externalAccountStatusUpdated(platformId, account));
      return account;
    });
  }

  /** A live account of `owner`, locked FOR UPDATE for the rest of `m`'s transaction; 404 ACCOUNT_NOT_FOUND otherwise. */
  lockOwned(m: EntityManager, platformId: string, owner: Owner, id: string): Promise<ExternalAccountEntity> {
    return this.find(m, platformId, owner, id, 'update');
  }

  /**
   * Writes `patch` to a locked row in `m`'s transaction; when the status changes, also the
   * `EXTERNAL_ACCOUNT.STATUS_UPDATED` event. Answers the account as it now is.
   */
  async apply(
    m: EntityManager,
    row: ExternalAccountEntity,
    patch: Partial<
      Pick<
        ExternalAccountEntity,
        | 'status'
        | 'ownershipChallengeMessage'
        | 'ownershipChallengeExpiresAt'
        | 'bankValidationDueAt'
        | 'beneficiaryVerificationStatus'
      >
    >,
    now: Date = this.clock.now(),
  ): Promise<ExternalAccount> {
    const next = Object.assign(new ExternalAccountEntity(), row, patch, { updatedAt: now });
    await m.update(ExternalAccountEntity, { id: row.id, platformId: row.platformId }, { ...patch, updatedAt: now });
    const account = renderExternalAccount(next);
    if (next.status !== row.status) await this.outbox.write(m, externalAccountStatusUpdated(row.platformId, account));
    return account;
  }

  /**
   * The micro-entry's return window closed for `row` (locked, PENDING, due): ACTIVE when it was
   * not returned, INACTIVE when it was (then INVALID_BANK_ACCOUNT on use); either way one
   * `EXTERNAL_ACCOUNT.STATUS_UPDATED`. Called by the bank-validation worker on the platform's Clock.
   */
  completeBankValidation(m: EntityManager, row: ExternalAccountEntity, now: Date): Promise<ExternalAccount> {
    return this.apply(
      m,
      row,
      { status: statusAfterWindow(row.bankValidation ?? 'VALIDATED'), bankValidationDueAt: null },
      now,
    );
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
      {
        id,
        deletedAt: IsNull(),
        customerId: owner.kind === 'platform' ? IsNull() : (owner.customerId ?? Not(IsNull())),
      },
      () => new ApiError('ACCOUNT_NOT_FOUND', `External account ${formatId('ExternalAccount', id)} not found`),
      lock,
    );
  }
}
