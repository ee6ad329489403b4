import { Injectable } from '@nestjs/common';
import { formatId } from '../common/ids.js';
import { RailOverdue, type OverdueRailTransaction } from '../payments/transactions/rail-overdue.service.js';
import {
  UmaReconciliationService,
  type OperatorResolution,
  type UnresolvedSettlement,
} from '../uma/uma-reconciliation.service.js';

/** What the Needs attention page shows: money that has not arrived where it should by now. */
export interface AttentionView {
  /** UMA payments to other deployments still unresolved (oldest first; `overdue` past the inquiry age). */
  settlements: UnresolvedSettlement[];
  /** Rail transactions still PROCESSING past their rail's expected settlement time. */
  railTransactions: OverdueRailTransaction[];
}

/**
 * The console's Needs attention page (docs/console.md): the platform's unresolved UMA settlements
 * and overdue rail transactions, and the operator's actions on a settlement (retry now, resolve
 * by refund or completion with a reason), each for the session's platform only (another
 * platform's payment is 404).
 */
@Injectable()
export class ConsoleAttentionService {
  constructor(
    private readonly settlements: UmaReconciliationService,
    private readonly rail: RailOverdue,
  ) {}

  async list(platformId: string): Promise<AttentionView> {
    const [settlements, railTransactions] = await Promise.all([
      this.settlements.unresolved(platformId),
      this.rail.list(platformId),
    ]);
    return { settlements, railTransactions };
  }

  async retry(platformId: string, transactionUuid: string): Promise<{ transactionId: string; status: string }> {
    const transactionId = formatId('Transaction', transactionUuid);
    await this.settlements.retryNow(platformId, transactionId);
    return { transactionId, status: 'PENDING' };
  }

  resolve(
    platformId: string,
    transactionUuid: string,
    action: OperatorResolution,
    reason: string,
  ): Promise<{ transactionId: string; status: string }> {
    return this.settlements.resolveByOperator(platformId, formatId('Transaction', transactionUuid), action, reason);
  }
}
