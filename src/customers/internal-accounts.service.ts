import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { EntityManager, IsNull } from 'typeorm';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { currencyInfo } from './currencies.js';
import type {
  InternalAccount,
  ListCustomerInternalAccountsQuery,
  ListPlatformInternalAccountsQuery,
} from './internal-account.dto.js';
import { InternalAccountEntity } from './internal-account.entity.js';
import { noteAuditResource } from '../audit/audit-trail.js';

export function renderInternalAccount(row: InternalAccountEntity): InternalAccount {
  const currency = currencyInfo(row.currency);
  const total = BigInt(row.balance);
  return {
    id: formatId('InternalAccount', row.id),
    ...(row.customerId !== null ? { customerId: formatId('Customer', row.customerId) } : {}),
    type: row.type,
    status: row.status,
    balance: { amount: Number(total - BigInt(row.held)), currency },
    totalBalance: { amount: Number(total), currency },
    fundingPaymentInstructions: [],
    ...(row.type === 'EMBEDDED_WALLET' ? { privateEnabled: row.privateEnabled === true } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Internal accounts: one INTERNAL_FIAT account per supported currency for the platform itself and
 * for each of its customers. Opened when the customer (or the platform) is created, and, when
 * PATCH /config adds a currency, at once for the platform and every active customer.
 */
@Injectable()
export class InternalAccountsService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionService,
    private readonly config: PlatformConfigService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.config.onSupportedCurrencies((m, platformId, codes) => this.openForCurrencies(m, platformId, codes));
  }

  /** Opens a new customer's accounts (inside the customer's creation transaction). */
  async openForCustomer(
    m: EntityManager,
    platformId: string,
    customerId: string,
    codes: string[],
  ): Promise<InternalAccountEntity[]> {
    const now = this.clock.now();
    const rows = codes.map((currency) =>
      m.create(InternalAccountEntity, {
        id: newUuid(),
        platformId,
        customerId,
        type: 'INTERNAL_FIAT',
        status: 'ACTIVE',
        currency,
        balance: '0',
        held: '0',
        ledgerSeq: '0',
        createdAt: now,
        updatedAt: now,
      }),
    );
    if (rows.length) await m.insert(InternalAccountEntity, rows);
    for (const row of rows) noteAuditResource(formatId('InternalAccount', row.id));
    return rows;
  }

  /**
   * The customer's EMBEDDED_WALLET account (opened here when it has none; the embedded-wallets
   * area provisions it, docs/embedded-wallets.md). Denominated in USD, as the reference's wallets.
   */
  async openEmbeddedWallet(
    m: EntityManager,
    platformId: string,
    customerId: string,
  ): Promise<{ account: InternalAccountEntity; opened: boolean }> {
    const now = this.clock.now();
    const inserted = await m.query<Array<{ id: string }>>(
      `INSERT INTO internal_accounts (id, platform_id, customer_id, type, status, currency, balance, ledger_seq, created_at, updated_at)
       VALUES ($1, $2, $3, 'EMBEDDED_WALLET', 'ACTIVE', 'USD', 0, 0, $4, $4)
       ON CONFLICT DO NOTHING RETURNING id`,
      [newUuid(), platformId, customerId, now],
    );
    const account = await m.findOneOrFail(InternalAccountEntity, {
      where: { platformId, customerId, type: 'EMBEDDED_WALLET', currency: 'USD' },
    });
    if (inserted.length) noteAuditResource(formatId('InternalAccount', account.id));
    return { account, opened: inserted.length > 0 };
  }

  /**
   * Makes sure the platform and each of its active customers hold an account in every one of
   * `codes` (existing accounts are left alone; removing a currency closes nothing). Customers
   * are locked FOR SHARE so a customer deleted concurrently gets no new account.
   */
  async openForCurrencies(m: EntityManager, platformId: string, codes: string[]): Promise<void> {
    const now = this.clock.now();
    for (const currency of codes) {
      await m.query(
        `INSERT INTO internal_accounts (id, platform_id, customer_id, type, status, currency, balance, ledger_seq, created_at, updated_at)
         VALUES ($1, $2, NULL, 'INTERNAL_FIAT', 'ACTIVE', $3, 0, 0, $4, $4)
         ON CONFLICT DO NOTHING`,
        [newUuid(), platformId, currency, now],
      );
      // Customers without an account in this currency: one uuid each, generated here so they
      // stay time-ordered like every other id.
      const missing = await m.query<Array<{ id: string }>>(
        `SELECT c.id FROM customers c
          WHERE c.platform_id = $1 AND NOT c.is_deleted
            AND NOT EXISTS (SELECT 1 FROM internal_accounts a
                             WHERE a.platform_id = c.platform_id AND a.customer_id = c.id AND a.currency = $2 AND a.type = 'INTERNAL_FIAT')
          ORDER BY c.id
          FOR SHARE OF c`,
        [platformId, currency],
      );
      for (let i = 0; i < missing.length; i += 500) {
        const batch = missing.slice(i, i + 500);
        await m.query(
          `INSERT INTO internal_accounts (id, platform_id, customer_id, type, status, currency, balance, ledger_seq, created_at, updated_at)
           SELECT u.id, $1, u.customer_id, 'INTERNAL_FIAT', 'ACTIVE', $2, 0, 0, $3, $3
             FROM unnest($4::uuid[], $5::uuid[]) AS u(id, customer_id)
           ON CONFLICT DO NOTHING`,
          [platformId, currency, now, batch.map(() => newUuid()), batch.map((r) => r.id)],
        );
      }
    }
  }

  /** One of the platform's accounts (its own or a customer's); 404 ACCOUNT_NOT_FOUND otherwise. */
  async find(m: EntityManager, platformId: string, accountId: string): Promise<InternalAccountEntity> {
    return findOwned(
      m,
      InternalAccountEntity,
      platformId,
      { id: accountId },
      () => new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${formatId('InternalAccount', accountId)} not found`),
    );
  }

  /** A customer's account in one currency, or null. */
  findCustomerAccount(
    m: EntityManager,
    platformId: string,
    customerId: string,
    currency: string,
  ): Promise<InternalAccountEntity | null> {
    return m.findOne(InternalAccountEntity, { where: { platformId, customerId, currency, type: 'INTERNAL_FIAT' } });
  }

  async listForCustomers(platformId: string, query: ListCustomerInternalAccountsQuery): Promise<Page<InternalAccount>> {
    const qb = this.tx.manager
      .createQueryBuilder(InternalAccountEntity, 'a')
      .where('a.platform_id = :platformId AND a.customer_id IS NOT NULL', { platformId });
    if (query.customerId !== undefined) {
      const customerId = parseId('Customer', query.customerId);
      qb.andWhere('a.customer_id = :customerId', { customerId });
    }
    if (query.currency !== undefined) qb.andWhere('a.currency = :currency', { currency: query.currency });
    if (query.type !== undefined) qb.andWhere('a.type = :type', { type: query.type });
    return paginate(qb, query, renderInternalAccount);
  }

  /** The platform's own accounts (one per currency: a short list, not paginated, as in the reference). */
  async listForPlatform(
    platformId: string,
    query: ListPlatformInternalAccountsQuery,
  ): Promise<{ data: InternalAccount[] }> {
    const rows = await this.tx.manager.find(InternalAccountEntity, {
      where: {
        platformId,
        customerId: IsNull(),
        ...(query.currency !== undefined ? { currency: query.currency } : {}),
        ...(query.type !== undefined ? { type: query.type } : {}),
      },
      order: { id: 'ASC' },
    });
    return { data: rows.map(renderInternalAccount) };
  }
}
