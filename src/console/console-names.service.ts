import { Injectable } from '@nestjs/common';
import { formatId, parseId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { beneficiaryName, customerNameSql, externalAccountLabel, internalAccountLabel } from './console-names.js';

/** What the console shows for an id: a label a person reads, and a line of context. */
export interface NameView {
  id: string;
  label: string;
  /** Whose it is, or what it is for ("Ada Lovelace", "Platform", "for John Doe"). */
  detail?: string;
}

export const NAMED_KINDS = ['Customer', 'InternalAccount', 'ExternalAccount', 'Agent', 'Card', 'Transaction'] as const;
type Kind = (typeof NAMED_KINDS)[number];
export const MAX_NAMES = 200;

const CUSTOMERS_SQL = `
  SELECT c.id, ${customerNameSql('c')} AS name, c.platform_customer_id
    FROM customers c WHERE c.platform_id = $1 AND c.id = ANY($2::uuid[])`;

const INTERNAL_SQL = `
  SELECT a.id, a.currency, a.type, a.customer_id, ${customerNameSql('c')} AS owner
    FROM internal_accounts a LEFT JOIN customers c ON c.id = a.customer_id AND c.platform_id = a.platform_id
   WHERE a.platform_id = $1 AND a.id = ANY($2::uuid[])`;

const EXTERNAL_SQL = `
  SELECT x.id, x.account_type, x.account_info, x.customer_id, ${customerNameSql('c')} AS owner
    FROM external_accounts x LEFT JOIN customers c ON c.id = x.customer_id AND c.platform_id = x.platform_id
   WHERE x.platform_id = $1 AND x.id = ANY($2::uuid[])`;

const AGENTS_SQL = `
  SELECT g.id, g.name, ${customerNameSql('c')} AS owner
    FROM agents g JOIN customers c ON c.id = g.customer_id AND c.platform_id = g.platform_id
   WHERE g.platform_id = $1 AND g.id = ANY($2::uuid[])`;

const CARDS_SQL = `
  SELECT k.id, k.last4, ${customerNameSql('c')} AS owner
    FROM cards k JOIN customers c ON c.id = k.customer_id AND c.platform_id = k.platform_id
   WHERE k.platform_id = $1 AND k.id = ANY($2::uuid[])`;

const TRANSACTIONS_SQL = `
  SELECT t.id, t.type, t.amount::text AS amount, t.currency, t.customer_id, ${customerNameSql('c')} AS owner
    FROM (SELECT id, platform_id, 'OUTGOING' AS type, sent_amount AS amount, sending_currency AS currency, customer_id
            FROM outgoing_transactions WHERE platform_id = $1
          UNION ALL
          SELECT id, platform_id, 'INCOMING', received_amount, currency, customer_id
            FROM incoming_transactions WHERE platform_id = $1) t
    LEFT JOIN customers c ON c.id = t.customer_id AND c.platform_id = $1
   WHERE t.platform_id = $1 AND t.id = ANY($2::uuid[])`;

/** Minor units with the currency's decimals: "10.02 USD". */
export function formatMoney(amount: number, currency: string): string {
  const { decimals } = currencyInfo(currency);
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(decimals + 1, '0');
  const whole = decimals ? digits.slice(0, -decimals) : digits;
  const fraction = decimals ? `.${digits.slice(-decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction} ${currency}`;
}

/**
 * Names for ids (`GET /console/api/names`): one statement per kind of id asked for (never one per
 * id), each scoped to the session's platform, so another platform's id simply has no name.
 */
@Injectable()
export class ConsoleNamesService {
  constructor(private readonly tx: TransactionService) {}

  /** Parses `ids` (comma-separated); every malformed one is a FieldError. */
  parse(ids: string): Map<Kind, string[]> {
    const byKind = new Map<Kind, string[]>();
    const list = [...new Set(ids.split(',').map((s) => s.trim()))].filter((s) => s !== '');
    if (list.length > MAX_NAMES) throw invalidInput([fieldError('ids', `ids must name at most ${MAX_NAMES} ids`)]);
    const errors = [];
    for (const id of list) {
      const kind = NAMED_KINDS.find((k) => id.startsWith(`${k}:`));
      const uuid = kind ? parseId(kind, id) : null;
      if (!kind || !uuid) {
        errors.push(fieldError('ids', `${id.slice(0, 80)} is not an id of a ${NAMED_KINDS.join(', ')}`));
        continue;
      }
      byKind.set(kind, [...(byKind.get(kind) ?? []), uuid]);
    }
    if (errors.length) throw invalidInput(errors.slice(0, 20));
    return byKind;
  }

  async names(platformId: string, ids: string): Promise<Record<string, NameView>> {
    const byKind = this.parse(ids);
    const out: Record<string, NameView> = {};
    const put = (v: NameView) => (out[v.id] = v);
    const run = <T>(sql: string, uuids: string[] | undefined) =>
      uuids?.length ? this.tx.query<T[]>(sql, [platformId, uuids]) : Promise.resolve([] as T[]);

    type CustomerRow = { id: string; name: string; platform_customer_id: string };
    for (const r of await run<CustomerRow>(CUSTOMERS_SQL, byKind.get('Customer'))) {
      put({ id: formatId('Customer', r.id), label: r.name, detail: r.platform_customer_id });
    }
    type InternalRow = { id: string; currency: string; type: string; customer_id: string | null; owner: string | null };
    for (const r of await run<InternalRow>(INTERNAL_SQL, byKind.get('InternalAccount'))) {
      put({
        id: formatId('InternalAccount', r.id),
        label: internalAccountLabel(r.currency, r.type),
        detail: r.customer_id === null ? 'Platform' : (r.owner ?? undefined),
      });
    }
    type ExternalRow = {
      id: string;
      account_type: string;
      account_info: Record<string, unknown>;
      customer_id: string | null;
      owner: string | null;
    };
    for (const r of await run<ExternalRow>(EXTERNAL_SQL, byKind.get('ExternalAccount'))) {
      const info = r.account_info ?? {};
      const beneficiary = beneficiaryName(info);
      const owner = r.customer_id === null ? 'Platform' : r.owner;
      put({
        id: formatId('ExternalAccount', r.id),
        label: externalAccountLabel(r.account_type, info),
        detail: [beneficiary ? `for ${beneficiary}` : null, owner ? `of ${owner}` : null].filter(Boolean).join(', '),
      });
    }
    type AgentRow = { id: string; name: string; owner: string };
    for (const r of await run<AgentRow>(AGENTS_SQL, byKind.get('Agent'))) {
      put({ id: formatId('Agent', r.id), label: r.name, detail: r.owner });
    }
    type CardRow = { id: string; last4: string | null; owner: string };
    for (const r of await run<CardRow>(CARDS_SQL, byKind.get('Card'))) {
      put({ id: formatId('Card', r.id), label: r.last4 ? `Card ••••${r.last4}` : 'Card', detail: r.owner });
    }
    type TransactionRow = {
      id: string;
      type: string;
      amount: string;
      currency: string;
      customer_id: string | null;
      owner: string | null;
    };
    for (const r of await run<TransactionRow>(TRANSACTIONS_SQL, byKind.get('Transaction'))) {
      put({
        id: formatId('Transaction', r.id),
        label: `${r.type === 'OUTGOING' ? 'Sent' : 'Received'} ${formatMoney(Number(r.amount), r.currency)}`,
        detail: r.customer_id === null ? 'Platform' : (r.owner ?? undefined),
      });
    }
    return out;
  }
}
