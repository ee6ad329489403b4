import { Injectable } from '@nestjs/common';
import { formatId } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import type { TimelineStep } from '../payments/transactions/outgoing-transaction.entity.js';

/** One posting of a journal the transaction moved money with (docs/ledger.md). */
export interface PostingView {
  journalId: string;
  /** `InternalAccount:<uuid>`, or null for a system account. */
  accountId: string | null;
  /** RAIL_CLEARING, FX, FEES_COLLECTED, PLATFORM_REVENUE, ... or null for an internal account. */
  systemAccount: string | null;
  currency: string;
  /** Signed minor units: + credit, - debit. */
  amount: number;
  /** An internal account's balance after it (null for a system account). */
  balanceAfter: number | null;
  reason: string;
  createdAt: string;
}

export interface TransactionHistoryView {
  transactionId: string;
  timeline: TimelineStep[];
  postings: PostingView[];
}

/** The transaction's stored status timeline (each status it reached, when, and why when it failed). */
const TIMELINE_SQL = `
  SELECT timeline FROM outgoing_transactions WHERE id = $1 AND platform_id = $2
  UNION ALL
  SELECT timeline FROM incoming_transactions WHERE id = $1 AND platform_id = $2`;

/** Every posting of every journal that names the transaction (its payment, and a refund or a return). */
const POSTINGS_SQL = `
  SELECT e.journal_id, e.account_id, e.system_account, e.currency, e.amount::text AS amount,
         e.balance_after::text AS balance_after, e.reason, e.created_at
    FROM ledger_entries e
   WHERE e.platform_id = $1
     AND e.journal_id IN (SELECT journal_id FROM ledger_entries WHERE reference = $2 AND platform_id = $1)
   ORDER BY e.created_at, e.journal_id, e.system_account NULLS FIRST, e.id`;

interface PostingRow {
  journal_id: string;
  account_id: string | null;
  system_account: string | null;
  currency: string;
  amount: string;
  balance_after: string | null;
  reason: string;
  created_at: Date;
}

/**
 * What the console's transaction page shows beside `GET /transactions/{id}`: the status timeline
 * (stored with the transaction: each status it reached) and the ledger postings its movements
 * made. Read only, two fixed statements; another platform's transaction is 404 TRANSACTION_NOT_FOUND.
 */
@Injectable()
export class ConsoleTransactionsService {
  constructor(private readonly tx: TransactionService) {}

  async history(platformId: string, transactionUuid: string): Promise<TransactionHistoryView> {
    const transactionId = formatId('Transaction', transactionUuid);
    const [row] = await this.tx.query<Array<{ timeline: TimelineStep[] }>>(TIMELINE_SQL, [transactionUuid, platformId]);
    if (!row)
      throw new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`, {
        details: { transactionId },
      });
    const postings = await this.tx.query<PostingRow[]>(POSTINGS_SQL, [platformId, transactionId]);
    return {
      transactionId,
      timeline: row.timeline ?? [],
      postings: postings.map((p) => ({
        journalId: p.journal_id,
        accountId: p.account_id === null ? null : formatId('InternalAccount', p.account_id),
        systemAccount: p.system_account,
        currency: p.currency,
        amount: Number(p.amount),
        balanceAfter: p.balance_after === null ? null : Number(p.balance_after),
        reason: p.reason,
        createdAt: p.created_at.toISOString(),
      })),
    };
  }
}
