import type { IncomingHttpHeaders } from 'node:http';
import { ContactChangeGates } from './contact-change.js';
import { UmaDomain } from '../uma/uma-domain.js';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm';
import { formatId, newUuid } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { conflictFor, findOwned, type RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import {
  crossFieldErrors,
  mergeProfile,
  parseCustomerCreate,
  parseCustomerUpdate,
  plain,
  profileOf,
} from './customer-body.js';
import { kycStatusChanged } from './customer-events.js';
import type { CustomerView, ListCustomersQuery } from './customer.dto.js';
import { CustomerEntity } from './customer.entity.js';
import type { EndUserTermsConsent, KycStatus } from './customer.types.js';
import { IdentifierSeal } from './identifier-seal.js';
import { InternalAccountsService } from './internal-accounts.service.js';
import { noteAuditResource } from '../audit/audit-trail.js';
import { AppConfig } from '../config/app-config.js';
import { checkRequiredFields, checkTermsVersion } from './customer-requirements.js';
import { ContactVerificationRules } from './contact-verification-rules.js';

/** The platform's configuration as `lockConfig` answers it. */
export type LockedConfig = Awaited<ReturnType<PlatformConfigService['load']>>;

export function renderCustomer(row: CustomerEntity): CustomerView {
  const base = {
    id: formatId('Customer', row.id),
    platformCustomerId: row.platformCustomerId,
    customerType: row.customerType,
    ...(row.region !== null ? { region: row.region } : {}),
    currencies: row.currencies,
    ...(row.email !== null ? { email: row.email } : {}),
    ...(row.phoneNumber !== null ? { phoneNumber: row.phoneNumber } : {}),
    umaAddress: row.umaAddress,
    ...(row.endUserTermsConsent !== null ? { endUserTermsConsent: row.endUserTermsConsent } : {}),
  };
  const times = {
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDeleted: row.isDeleted,
    ...(row.contactVerification ? { contactVerification: row.contactVerification } : {}),
  };
  if (row.customerType === 'INDIVIDUAL') {
    return { ...base, kycStatus: row.kycStatus, ...row.profile, ...times };
  }
  // The reference names a business's status `kybStatus`; `kycStatus` carries the same value so
  // every customer can be checked the same way (e.g. by the cards rules).
  return { ...base, kybStatus: row.kycStatus, kycStatus: row.kycStatus, ...row.profile, ...times };
}

function notFound(customerId: string): ApiError {
  return new ApiError('CUSTOMER_NOT_FOUND', `Customer ${formatId('Customer', customerId)} not found`);
}

function deleted(customerId: string): ApiError {
  return new ApiError('CUSTOMER_DELETED', `Customer ${formatId('Customer', customerId)} has been deleted`, {
    details: { customerId: formatId('Customer', customerId) },
  });
}

/** Maps the unique indexes' violations to the API's 409s; anything else gives null (rethrow it). */
function uniqueViolation(error: unknown, platformCustomerId: string, umaAddress: string): ApiError | null {
  return conflictFor(error, {
    customers_platform_customer_id_active: () =>
      new ApiError('CONFLICT', `An active customer with platformCustomerId '${platformCustomerId}' already exists`, {
        details: { field: 'platformCustomerId' },
      }),
    customers_uma_address_active: () =>
      new ApiError('UMA_ADDRESS_EXISTS', `UMA address ${umaAddress} already exists`, {
        details: { field: 'umaAddress' },
      }),
  });
}

/** Each requested currency must be one the platform supports (values not yet validated are skipped). */
function currencyErrors(requested: unknown, supported: string[]): FieldError[] {
  if (!Array.isArray(requested)) return [];
  const errors: FieldError[] = [];
  requested.forEach((code: unknown, i) => {
    if (typeof code === 'string' && !supported.includes(code))
      errors.push(
        fieldError(
          `currencies.${i}`,
          `${code} is not one of the platform's supportedCurrencies (${supported.join(', ')})`,
          { enum: supported },
        ),
      );
  });
  return errors;
}

/**
 * Field-by-field errors first; a later rule (cross-field, supported currencies) is reported only
 * on a field that is not already wrong (itself or a parent), so each field gets one FieldError.
 */
function dedupe(errors: FieldError[]): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    if (!out.some((e) => error.field === e.field || error.field.startsWith(`${e.field}.`))) out.push(error);
  }
  return out;
}

/**
 * Called inside a customer's creation transaction, after its internal accounts are open (the
 * embedded-wallets area provisions the customer's wallet). A listener that throws rolls it back.
 */
export type CustomerCreatedListener = (m: EntityManager, customer: CustomerEntity) => Promise<void>;

@Injectable()
export class CustomersService {
  constructor(
    private readonly tx: TransactionService,
    private readonly accounts: InternalAccountsService,
    private readonly outbox: OutboxService,
    private readonly config: PlatformConfigService,
    private readonly clock: Clock,
    private readonly identifiers: IdentifierSeal,
    private readonly umaDomain: UmaDomain,
    private readonly appConfig: AppConfig,
    private readonly contactRules: ContactVerificationRules,
    private readonly contactGates: ContactChangeGates,
  ) {}

  /** The End User Terms versions a customer may accept (END_USER_TERMS_VERSIONS). */
  termsVersions(): string[] {
    return this.appConfig.END_USER_TERMS_VERSIONS.split(',');
  }

  /** `GET /customers/end-user-terms`: the current version (the last configured) and where it is hosted. */
  endUserTerms(): { version: string; url: string } {
    const versions = this.termsVersions();
    return { version: versions[versions.length - 1], url: this.appConfig.END_USER_TERMS_URL };
  }

  /**
   * For other modules, inside their transaction, before giving a customer anything new (a card,
   * an agent, an account): the customer, locked so a concurrent DELETE waits for the caller's
   * transaction (or, if it committed first, is seen here).
   *
   * - unknown id, or another platform's customer: 404 CUSTOMER_NOT_FOUND;
   * - deleted customer: 410 CUSTOMER_DELETED (the reference's code for a deleted customer).
   *
   * `lock`: `share` (default; FOR SHARE: several creations may proceed together, a delete waits)
   * or `update` (FOR UPDATE, when the caller changes the customer row itself).
   */
  async requireActive(
    m: EntityManager,
    platformId: string,
    customerId: string,
    lock: RowLock = 'share',
  ): Promise<CustomerEntity> {
    const row = await findOwned(m, CustomerEntity, platformId, { id: customerId }, () => notFound(customerId), lock);
    if (row.isDeleted) throw deleted(customerId);
    return row;
  }

  private readonly createdListeners: CustomerCreatedListener[] = [];

  /** Registers a listener run inside each customer's creation transaction (see `CustomerCreatedListener`). */
  onCustomerCreated(listener: CustomerCreatedListener): void {
    this.createdListeners.push(listener);
  }

  private readonly updatedListeners: CustomerCreatedListener[] = [];

  /**
   * Registers a listener run inside each `PATCH /customers/{id}` transaction, after the row is
   * written (embedded wallets: a customer that now has a contact a wallet can own is provisioned).
   */
  onCustomerUpdated(listener: CustomerCreatedListener): void {
    this.updatedListeners.push(listener);
  }

  async create(platformId: string, body: unknown): Promise<CustomerView> {
    return this.tx.run((m) => this.createIn(m, platformId, body));
  }

  /** `create` inside the caller's transaction (the bulk import: one savepoint per row). */
  /**
   * The platform's configuration FOR SHARE in `m`, for several `createIn` in the same transaction
   * (a concurrent PATCH /config waits for all of them).
   */
  lockConfig(m: EntityManager, platformId: string): Promise<LockedConfig> {
    return this.config.load(m, platformId, 'share');
  }

  async createIn(
    m: EntityManager,
    platformId: string,
    body: unknown,
    /** The platform's configuration, already locked in `m` by `lockConfig` (a bulk import's batch does it once). */
    lockedConfig?: LockedConfig,
  ): Promise<CustomerView> {
    const parsed = parseCustomerCreate(body);
    {
      // FOR SHARE: a concurrent PATCH /config that adds a currency waits for this customer (and
      // then opens its account in the new currency too), or this creation sees the new list.
      const config = lockedConfig ?? (await this.config.load(m, platformId, 'share'));
      const supported = config.supportedCurrencies.map((c) => c.currencyCode);
      const request = parsed.value;
      const errors = [...parsed.errors];
      const identifier =
        request && 'identifier' in request && typeof request.identifier === 'string' ? request.identifier : null;
      if (request) {
        errors.push(...currencyErrors(request.currencies, supported));
        errors.push(...crossFieldErrors(request.customerType, profileOf(request), identifier));
      }
      if (errors.length || !request) throw invalidInput(dedupe(errors));
      checkTermsVersion(request.endUserTermsConsent?.termsVersion, this.termsVersions());
      const currencies = request.currencies ?? supported;
      checkRequiredFields(
        {
          customerType: request.customerType,
          email: request.email ?? null,
          phoneNumber: request.phoneNumber ?? null,
          profile: profileOf(request),
          hasIdentifier: identifier !== null,
        },
        currencies,
        this.appConfig.providerRequiredCustomerFields,
      );

      const id = newUuid();
      const now = this.clock.now();
      const row = m.create(CustomerEntity, {
        id,
        platformId,
        platformCustomerId: request.platformCustomerId ?? id,
        customerType: request.customerType,
        kycStatus: 'UNVERIFIED',
        region: request.region ?? null,
        currencies,
        email: request.email ?? null,
        phoneNumber: request.phoneNumber ?? null,
        umaAddress: request.umaAddress ?? `$c${id.replaceAll('-', '')}@${config.umaDomain ?? this.umaDomain.get()}`,
        profile: profileOf(request),
        identifier: this.identifiers.seal(identifier),
        endUserTermsConsent: request.endUserTermsConsent
          ? (plain(request.endUserTermsConsent) as unknown as EndUserTermsConsent)
          : null,
        contactVerification: this.contactRules.stateFor(request.region ?? null, null, { email: false, phone: false }),
        isDeleted: false,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      try {
        // jsonb `profile` is free-form JSON, which TypeORM's deep-partial type cannot express.
        await m.insert(CustomerEntity, row as QueryDeepPartialEntity<CustomerEntity>);
      } catch (error) {
        throw uniqueViolation(error, row.platformCustomerId, row.umaAddress) ?? error;
      }
      noteAuditResource(formatId('Customer', id));
      await this.accounts.openForCustomer(m, platformId, id, supported);
      for (const listener of this.createdListeners) await listener(m, row);
      return renderCustomer(row);
    }
  }

  async list(platformId: string, query: ListCustomersQuery): Promise<Page<CustomerView>> {
    const qb = this.tx.manager
      .createQueryBuilder(CustomerEntity, 'c')
      .where('c.platform_id = :platformId', { platformId });
    if (!query.isIncludingDeleted) qb.andWhere('NOT c.is_deleted');
    if (query.platformCustomerId !== undefined)
      qb.andWhere('c.platform_customer_id = :pcid', { pcid: query.platformCustomerId });
    if (query.customerType !== undefined) qb.andWhere('c.customer_type = :type', { type: query.customerType });
    if (query.region !== undefined) qb.andWhere('c.region = :region', { region: query.region });
    if (query.currency !== undefined) qb.andWhere(':currency = ANY(c.currencies)', { currency: query.currency });
    if (query.umaAddress !== undefined) qb.andWhere('lower(c.uma_address) = lower(:uma)', { uma: query.umaAddress });
    return paginate(whereTimeRange(qb, 'c', query), query, renderCustomer);
  }

  /** Deleted customers stay readable (`isDeleted: true`). */
  async get(platformId: string, customerId: string): Promise<CustomerView> {
    const row = await findOwned(this.tx.manager, CustomerEntity, platformId, { id: customerId }, () =>
      notFound(customerId),
    );
    return renderCustomer(row);
  }

  /**
   * `PATCH /customers/{id}`. A change of an email or phone tied to an embedded wallet's OTP
   * credential is gated (`ContactChangeGates`): the first call answers `{ challenge }` (202,
   * nothing changed), the signed retry proceeds.
   */
  async update(
    platformId: string,
    customerId: string,
    body: unknown,
    headers: IncomingHttpHeaders = {},
  ): Promise<CustomerView | { challenge: Record<string, unknown> }> {
    const parsed = parseCustomerUpdate(body);
    return this.tx.run(async (m) => {
      const row = await this.requireActive(m, platformId, customerId, 'update');
      const request = parsed.value;
      if (!request) throw invalidInput(parsed.errors);
      const errors = [...parsed.errors];
      if (request.customerType !== row.customerType)
        errors.push(
          fieldError('customerType', `customerType cannot change: this customer is ${row.customerType}`, {
            enum: [row.customerType],
          }),
        );
      // A plain read (no lock): currencies here are the customer's metadata, no account is opened.
      errors.push(...currencyErrors(request.currencies, await this.config.supportedCurrencyCodes(m, platformId)));
      const patch = plain(request);
      const profile = mergeProfile(row.profile, patch);
      let identifier: string | null = null;
      if ('identifier' in patch) identifier = typeof patch.identifier === 'string' ? patch.identifier : null;
      else if (row.customerType === 'INDIVIDUAL') identifier = await this.storedIdentifier(m, platformId, row.id);
      if (request.customerType === row.customerType)
        errors.push(...crossFieldErrors(row.customerType, profile, identifier));
      if (errors.length) throw invalidInput(dedupe(errors));
      checkTermsVersion(request.endUserTermsConsent?.termsVersion, this.termsVersions());
      checkRequiredFields(
        {
          customerType: row.customerType,
          email: request.email !== undefined ? request.email : row.email,
          phoneNumber: request.phoneNumber !== undefined ? request.phoneNumber : row.phoneNumber,
          profile,
          hasIdentifier: identifier !== null,
        },
        request.currencies ?? row.currencies,
        this.appConfig.providerRequiredCustomerFields,
      );

      const changed = {
        email: request.email !== undefined && request.email !== row.email,
        phone: request.phoneNumber !== undefined && request.phoneNumber !== row.phoneNumber,
      };
      if (changed.email || changed.phone) {
        const gated = await this.contactGates.run(m, {
          platformId,
          customerId: row.id,
          before: { email: row.email, phoneNumber: row.phoneNumber },
          ...(changed.email ? { email: request.email } : {}),
          ...(changed.phone ? { phoneNumber: request.phoneNumber } : {}),
          body,
          headers,
        });
        if (gated !== 'proceed') return gated;
      }

      if (request.platformCustomerId !== undefined) row.platformCustomerId = request.platformCustomerId;
      if (request.region !== undefined) row.region = request.region;
      if (request.currencies !== undefined) row.currencies = request.currencies;
      if (request.email !== undefined) row.email = request.email;
      if (request.phoneNumber !== undefined) row.phoneNumber = request.phoneNumber;
      if (request.umaAddress !== undefined) row.umaAddress = request.umaAddress;
      if (request.endUserTermsConsent !== undefined)
        row.endUserTermsConsent = plain(request.endUserTermsConsent) as unknown as EndUserTermsConsent;
      row.profile = profile;
      row.contactVerification = this.contactRules.stateFor(row.region, row.contactVerification, changed);
      row.updatedAt = this.clock.now();
      try {
        await m.update(
          CustomerEntity,
          { id: row.id, platformId },
          {
            platformCustomerId: row.platformCustomerId,
            region: row.region,
            currencies: row.currencies,
            email: row.email,
            phoneNumber: row.phoneNumber,
            umaAddress: row.umaAddress,
            endUserTermsConsent: row.endUserTermsConsent,
            contactVerification: row.contactVerification,
            profile: row.profile as QueryDeepPartialEntity<CustomerEntity>['profile'],
            updatedAt: row.updatedAt,
            ...('identifier' in patch ? { identifier: this.identifiers.seal(identifier) } : {}),
          },
        );
      } catch (error) {
        throw uniqueViolation(error, row.platformCustomerId, row.umaAddress) ?? error;
      }
      for (const listener of this.updatedListeners) await listener(m, row);
      return renderCustomer(row);
    });
  }

  /**
   * Soft delete: the customer, its accounts and their ledgers stay (GET still answers, with
   * `isDeleted: true`); its platformCustomerId and umaAddress become free. Deleting twice: 410.
   */
  async remove(platformId: string, customerId: string): Promise<CustomerView> {
    return this.tx.run(async (m) => {
      const row = await this.requireActive(m, platformId, customerId, 'update');
      const now = this.clock.now();
      await m.update(CustomerEntity, { id: row.id, platformId }, { isDeleted: true, deletedAt: now, updatedAt: now });
      return renderCustomer({ ...row, isDeleted: true, deletedAt: now, updatedAt: now });
    });
  }

  /**
   * Sandbox: sets the KYC (KYB) status as a KYC provider would. A change to APPROVED, REJECTED or
   * PENDING writes `CUSTOMER.KYC_*` (`KYB_*` for a business) in the same transaction; setting the
   * current status again changes nothing and notifies nobody.
   */
  async setKycStatus(platformId: string, customerId: string, kycStatus: KycStatus): Promise<CustomerView> {
    return this.tx.run(async (m) => {
      const row = await this.requireActive(m, platformId, customerId, 'update');
      return this.applyKycStatus(m, platformId, row, kycStatus);
    });
  }

  /**
   * For verifications (src/verifications/), inside their transaction, on a customer they locked
   * FOR UPDATE: the status change and its `CUSTOMER.KYC_*` / `KYB_*` event, as `setKycStatus`.
   */
  async applyKycStatus(
    m: EntityManager,
    platformId: string,
    row: CustomerEntity,
    kycStatus: KycStatus,
  ): Promise<CustomerView> {
    if (row.kycStatus === kycStatus) return renderCustomer(row);
    const now = this.clock.now();
    await m.update(CustomerEntity, { id: row.id, platformId }, { kycStatus, updatedAt: now });
    const view = renderCustomer({ ...row, kycStatus, updatedAt: now });
    const event = kycStatusChanged(platformId, view);
    if (event) await this.outbox.write(m, event);
    return view;
  }

  private async storedIdentifier(m: EntityManager, platformId: string, id: string): Promise<string | null> {
    const row = await m.findOne(CustomerEntity, { where: { id, platformId }, select: { id: true, identifier: true } });
    return this.identifiers.open(row?.identifier ?? null);
  }
}
