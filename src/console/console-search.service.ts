import { Injectable } from '@nestjs/common';
import { formatId, isUuid, parseId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import type { Currency } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError } from '../errors/field-error.js';
import type { FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { customerNameSql } from './console-names.js';
import type { ConsoleTransactionsQuery } from './console.dto.js';

/**
 * Both directions in one shape (the columns the search and the CSV read). Outgoing: sent from an
 * internal account (or real-time funding) to an account or a UMA address. Incoming: received in an
 * internal account from an external account, a UMA address, a bank or real-time funding.
 */
const BOTH_DIRECTIONS = `
  SELECT o.id, o.platform_id, 'OUTGOING' AS type, o.status, o.customer_id,
         CASE WHEN o.source_account_id IS NULL THEN 'RealtimeFunding' ELSE 'InternalAccount' END AS source_kind,
         o.source_account_id, NULL::text AS source_uma_address,
         o.destination_kind, o.destination_account_id, o.destination_uma_address,
         o.sent_amount, o.sending_currency, o.received_amount, o.receiving_currency, o.exchange_rate, o.fees,
         o.quote_id, o.description, o.failure_reason, o.payment_rail,
         o.sent_amount AS amount, o.sending_currency AS currency, o.created_at, o.updated_at, o.settled_at
    FROM outgoing_transactions o WHERE o.platform_id = $1
  UNION ALL
  SELECT i.id, i.platform_id, 'INCOMING', i.status, i.customer_id,
         i.source_kind, i.source_account_id, i.sender_uma_address,
         'InternalAccount', i.destination_account_id, NULL::text,
         NULL::bigint, NULL::text, i.received_amount, i.currency, NULL::float8, NULL::bigint,
         i.quote_id, i.description, i.failure_reason, NULL::text,
         i.received_amount, i.currency, i.created_at, i.updated_at, i.settled_at
    FROM incoming_transactions i WHERE i.platform_id = $1`;

const COLUMNS = `
  t.id, t.type, t.status, t.customer_id, c.platform_customer_id, ${customerNameSql('c')} AS customer_name,
  t.source_kind, t.source_account_id, t.source_uma_address, t.destination_kind, t.destination_account_id,
  t.destination_uma_address, t.sent_amount::text AS sent_amount, t.sending_currency,
  t.received_amount::text AS received_amount, t.receiving_currency, t.exchange_rate, t.fees::text AS fees,
  t.quote_id, t.description, t.failure_reason, t.payment_rail, t.created_at, t.updated_at, t.settled_at`;

interface Row {
  id: string;
  type: 'OUTGOING' | 'INCOMING';
  status: string;
  customer_id: string | null;
  platform_customer_id: string | null;
  customer_name: string | null;
  source_kind: string;
  source_account_id: string | null;
  source_uma_address: string | null;
  destination_kind: string;
  destination_account_id: string | null;
  destination_uma_address: string | null;
  sent_amount: string | null;
  sending_currency: string | null;
  received_amount: string;
  receiving_currency: string;
  exchange_rate: number | null;
  fees: string | null;
  quote_id: string | null;
  description: string | null;
  failure_reason: string | null;
  payment_rail: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

/** One row of the console's search: the reference's Transaction members, plus the customer's name. */
export interface ConsoleTransactionRow {
  id: string;
  type: 'OUTGOING' | 'INCOMING';
  status: string;
  customerId: string;
  platformCustomerId: string;
  customerName: string | null;
  source: { sourceType: string; accountId?: string; umaAddress?: string };
  destination: { destinationType: string; accountId?: string; umaAddress?: string };
  sentAmount?: { amount: number; currency: Currency };
  receivedAmount: { amount: number; currency: Currency };
  exchangeRate?: number;
  fees?: number;
  quoteId?: string;
  description?: string;
  failureReason?: string;
  paymentRail?: string;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
}

export interface ConsoleTransactionsPage {
  data: ConsoleTransactionRow[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** The CSV's columns: the reference's Transaction member names (nested ones dotted), in this order. */
export const CSV_COLUMNS = [
  'id',
  'type',
  'status',
  'customerId',
  'platformCustomerId',
  'source.sourceType',
  'source.accountId',
  'source.umaAddress',
  'destination.destinationType',
  'destination.accountId',
  'destination.umaAddress',
  'sentAmount.amount',
  'sentAmount.currency.code',
  'receivedAmount.amount',
  'receivedAmount.currency.code',
  'exchangeRate',
  'fees',
  'quoteId',
  'paymentRail',
  'description',
  'failureReason',
  'createdAt',
  'updatedAt',
  'settledAt',
] as const;

const CSV_BATCH = 500;

const encodeCursor = (id: string) => Buffer.from(JSON.stringify({ k: id })).toString('base64url');
function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown } | null;
    if (typeof parsed?.k === 'string' && isUuid(parsed.k)) return parsed.k.toLowerCase();
  } catch {
    // fall through
  }
  throw invalidInput([fieldError('cursor', 'cursor is not a cursor this API returned')]);
}

/** `%` and `_` in a name are letters, not wildcards. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

const SOURCE_TYPES: Record<string, string> = {
  InternalAccount: 'ACCOUNT',
  ExternalAccount: 'ACCOUNT',
  UmaAddress: 'UMA_ADDRESS',
  RealtimeFunding: 'REALTIME_FUNDING',
  Bank: 'REALTIME_FUNDING',
};

function render(platformId: string, r: Row): ConsoleTransactionRow {
  const account = (kind: string, id: string | null) =>
    id !== null && (kind === 'InternalAccount' || kind === 'ExternalAccount') ? formatId(kind, id) : undefined;
  const view: ConsoleTransactionRow = {
    id: formatId('Transaction', r.id),
    type: r.type,
    status: r.status,
    customerId: r.customer_id === null ? formatId('Platform', platformId) : formatId('Customer', r.customer_id),
    platformCustomerId: r.platform_customer_id ?? '',
    customerName: r.customer_id === null ? null : r.customer_name,
    source: {
      sourceType: SOURCE_TYPES[r.source_kind] ?? r.source_kind,
      ...(account(r.source_kind, r.source_account_id)
        ? { accountId: account(r.source_kind, r.source_account_id) }
        : {}),
      ...(r.source_uma_address ? { umaAddress: r.source_uma_address } : {}),
    },
    destination: {
      destinationType: r.destination_kind === 'UmaAddress' ? 'UMA_ADDRESS' : 'ACCOUNT',
      ...(account(r.destination_kind, r.destination_account_id)
        ? { accountId: account(r.destination_kind, r.destination_account_id) }
        : {}),
      ...(r.destination_uma_address ? { umaAddress: r.destination_uma_address } : {}),
    },
    receivedAmount: { amount: Number(r.received_amount), currency: currencyInfo(r.receiving_currency) },
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
  if (r.sent_amount !== null && r.sending_currency !== null)
    view.sentAmount = { amount: Number(r.sent_amount), currency: currencyInfo(r.sending_currency) };
  if (r.exchange_rate !== null) view.exchangeRate = r.exchange_rate;
  if (r.fees !== null) view.fees = Number(r.fees);
  if (r.quote_id !== null) view.quoteId = formatId('Quote', r.quote_id);
  if (r.description !== null) view.description = r.description;
  if (r.failure_reason !== null) view.failureReason = r.failure_reason;
  if (r.payment_rail !== null) view.paymentRail = r.payment_rail;
  if (r.settled_at !== null) view.settledAt = r.settled_at.toISOString();
  return view;
}

/** One CSV cell: quoted when needed; a text starting like a formula is prefixed with `'` (spreadsheets). */
function cell(value: string | number | undefined): string {
  if (value === undefined) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(t: ConsoleTransactionRow): string {
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | undefined> = {
    id: t.id,
    type: t.type,
    status: t.status,
    customerId: t.customerId,
    platformCustomerId: t.platformCustomerId,
    'source.sourceType': t.source.sourceType,
    'source.accountId': t.source.accountId,
    'source.umaAddress': t.source.umaAddress,
    'destination.destinationType': t.destination.destinationType,
    'destination.accountId': t.destination.accountId,
    'destination.umaAddress': t.destination.umaAddress,
    'sentAmount.amount': t.sentAmount?.amount,
    'sentAmount.currency.code': t.sentAmount?.currency.code,
    'receivedAmount.amount': t.receivedAmount.amount,
    'receivedAmount.currency.code': t.receivedAmount.currency.code,
    exchangeRate: t.exchangeRate,
    fees: t.fees,
    quoteId: t.quoteId,
    paymentRail: t.paymentRail,
    description: t.description,
    failureReason: t.failureReason,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    settledAt: t.settledAt,
  };
  return `${CSV_COLUMNS.map((c) => cell(values[c])).join(',')}\r\n`;
}

/**
 * The console's transaction search and its CSV: one statement per page (or per CSV batch) over
 * both directions, filtered and scoped to the session's platform, keyset-paginated newest first on
 * the time-ordered id (as GET /transactions), the customer's name joined in (no query per row).
 */
@Injectable()
export class ConsoleSearchService {
  constructor(private readonly tx: TransactionService) {}

  /** The WHERE clause and its parameters ($1 is the platform); 400 for contradictory bounds. */
  private filter(platformId: string, q: ConsoleTransactionsQuery): { where: string; params: unknown[] } {
    const errors: FieldError[] = [];
    if (q.minAmount !== undefined && q.maxAmount !== undefined && q.minAmount > q.maxAmount)
      errors.push(fieldError('minAmount', 'minAmount must not be more than maxAmount'));
    if (q.createdAfter && q.createdBefore && Date.parse(q.createdAfter) > Date.parse(q.createdBefore))
      errors.push(fieldError('createdAfter', 'createdAfter must not be later than createdBefore'));
    if (errors.length) throw invalidInput(errors);
    const params: unknown[] = [platformId];
    const where = ['t.platform_id = $1'];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (q.status) add((n) => `t.status = ${n}`, q.status);
    if (q.type) add((n) => `t.type = ${n}`, q.type);
    if (q.customerId) add((n) => `t.customer_id = ${n}`, parseId('Customer', q.customerId));
    if (q.customerName?.trim())
      add((n) => `${customerNameSql('c')} ILIKE ${n}`, `%${likeLiteral(q.customerName.trim())}%`);
    if (q.currency) add((n) => `t.currency = ${n}`, q.currency);
    if (q.minAmount !== undefined) add((n) => `t.amount >= ${n}`, q.minAmount);
    if (q.maxAmount !== undefined) add((n) => `t.amount <= ${n}`, q.maxAmount);
    if (q.createdAfter) add((n) => `t.created_at >= ${n}`, q.createdAfter);
    if (q.createdBefore) add((n) => `t.created_at <= ${n}`, q.createdBefore);
    return { where: where.join(' AND '), params };
  }

  private async rows(platformId: string, q: ConsoleTransactionsQuery, limit: number, after?: string): Promise<Row[]> {
    const { where, params } = this.filter(platformId, q);
    let sql = `SELECT ${COLUMNS} FROM (${BOTH_DIRECTIONS}) t LEFT JOIN customers c ON c.id = t.customer_id AND c.platform_id = $1 WHERE ${where}`;
    if (after) {
      params.push(after);
      sql += ` AND t.id < $${params.length}`;
    }
    params.push(limit);
    sql += ` ORDER BY t.id DESC LIMIT $${params.length}`;
    return this.tx.query<Row[]>(sql, params);
  }

  async search(platformId: string, q: ConsoleTransactionsQuery): Promise<ConsoleTransactionsPage> {
    const limit = q.limit ?? 50;
    const { where, params } = this.filter(platformId, q);
    const [count] = await this.tx.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM (${BOTH_DIRECTIONS}) t LEFT JOIN customers c ON c.id = t.customer_id AND c.platform_id = $1 WHERE ${where}`,
      params,
    );
    const rows = await this.rows(platformId, q, limit + 1, q.cursor ? decodeCursor(q.cursor) : undefined);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    return {
      data: page.map((r) => render(platformId, r)),
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(page[page.length - 1].id) } : {}),
      totalCount: count.n,
    };
  }

  /**
   * Every matching transaction, newest first, in batches of CSV_BATCH (one statement each):
   * `write` is awaited (the response's back-pressure), `stopped` ends it early (client gone).
   * Validates before the first byte, so a bad filter is still a 400.
   */
  async csv(
    platformId: string,
    q: ConsoleTransactionsQuery,
    write: (chunk: string) => Promise<void>,
    stopped: () => boolean,
  ): Promise<void> {
    this.filter(platformId, q);
    let after = q.cursor ? decodeCursor(q.cursor) : undefined;
    await write(`${CSV_COLUMNS.join(',')}\r\n`);
    while (!stopped()) {
      const rows = await this.rows(platformId, q, CSV_BATCH, after);
      if (rows.length) await write(rows.map((r) => csvLine(render(platformId, r))).join(''));
      if (rows.length < CSV_BATCH) break;
      after = rows[rows.length - 1].id;
    }
  }
}
