/**
 * STUB (umasend) of the contract between the two UMA helpers: the `umain` helper owns this file
 * and its real version (IncomingTransaction PENDING, the platform's webhook decision, approve /
 * reject, timeout) replaces this one at merge. The stub approves every payment at once: it credits
 * the receiver's account from the ledger's UMA_SETTLEMENT clearing account and calls the
 * settlement hook in the same transaction. Hook registration: `registerSettlementHook(origin, hook)`
 * (the UMA module registers its hook for origin 'UMA'); INCOMING_SETTLEMENT_HOOK stays the no-op
 * default for the others.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { formatId, newUuid } from '../common/ids.js';
import { LedgerService } from '../customers/ledger.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { moveMoney } from './money-movement.js';

export interface IncomingPaymentInput {
  platformId: string;
  accountId: string; // the receiver's internal account id (InternalAccount:<uuid>)
  amount: string; // integer minor units of the account's currency, as a decimal string
  currency: string;
  senderUmaAddress?: string;
  counterpartyInformation?: Record<string, unknown>; // the payer data the sender sent
  reference: string; // unique per (platform, reference): a repeat returns the same transaction, never credits twice
  origin: 'SANDBOX' | 'UMA' | 'BANK';
  settlement?: Record<string, unknown>; // opaque; handed back to the hook untouched
}
export interface IncomingDecision {
  transactionId: string;
  platformId: string;
  reference: string;
  settlement?: Record<string, unknown>;
  outcome: 'COMPLETED' | 'FAILED';
  failureReason?: string;
  receiverFields?: string[]; // when the platform answered 422: the receiver fields it asked for
}
export const INCOMING_SETTLEMENT_HOOK = 'INCOMING_SETTLEMENT_HOOK';
export interface IncomingSettlementHook {
  // Called inside the transaction that decides the payment (same EntityManager), once per payment.
  onDecided(manager: EntityManager, decision: IncomingDecision): Promise<void>;
}
export const NO_SETTLEMENT_HOOK: IncomingSettlementHook = { onDecided: () => Promise.resolve() };

const REASON = 'UMA_INCOMING_PAYMENT';

@Injectable()
export class IncomingPaymentsService {
  private readonly hooks = new Map<IncomingPaymentInput['origin'], IncomingSettlementHook>();

  constructor(
    private readonly tx: TransactionService,
    private readonly ledger: LedgerService,
    @Inject(INCOMING_SETTLEMENT_HOOK) private readonly defaultHook: IncomingSettlementHook,
  ) {}

  registerSettlementHook(origin: IncomingPaymentInput['origin'], hook: IncomingSettlementHook): void {
    this.hooks.set(origin, hook);
  }

  receive(input: IncomingPaymentInput): Promise<{ transactionId: string; status: string; created: boolean }> {
    return this.tx.run(async (m) => {
      const reference = `${input.platformId}/${input.reference}`;
      // The stub's idempotency: one journal per reference (serialised per reference by the lock).
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [reference]);
      const seen = await m.query<Array<{ journal_id: string }>>(
        `SELECT journal_id FROM ledger_entries WHERE platform_id = $1 AND reason = $2 AND reference = $3 LIMIT 1`,
        [input.platformId, REASON, reference],
      );
      if (seen[0]) {
        return { transactionId: formatId('Transaction', seen[0].journal_id), status: 'COMPLETED', created: false };
      }
      const accountId = input.accountId.replace(/^InternalAccount:/, '');
      const amount = BigInt(input.amount);
      await moveMoney(this.ledger, m, {
        lines: [
          {
            account: { system: 'UMA_SETTLEMENT', platformId: input.platformId, currency: input.currency },
            amount: -amount,
            currency: input.currency,
          },
          { account: { internalAccountId: accountId }, amount, currency: input.currency },
        ],
        reason: REASON,
        reference,
      });
      const journal = await m.query<Array<{ journal_id: string }>>(
        `SELECT journal_id FROM ledger_entries WHERE platform_id = $1 AND reason = $2 AND reference = $3 LIMIT 1`,
        [input.platformId, REASON, reference],
      );
      const transactionId = formatId('Transaction', journal[0]?.journal_id ?? newUuid());
      const hook = this.hooks.get(input.origin) ?? this.defaultHook;
      await hook.onDecided(m, {
        transactionId,
        platformId: input.platformId,
        reference: input.reference,
        settlement: input.settlement,
        outcome: 'COMPLETED',
      });
      return { transactionId, status: 'COMPLETED', created: true };
    });
  }
}
