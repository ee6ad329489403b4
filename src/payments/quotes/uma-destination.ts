import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { BusinessTime } from '../../common/clock.js';
import type { QuoteRequest } from './quote.dto.js';
import type { QuoteEntity } from './quote.entity.js';
import type { Pricing } from '../exchange-rates/quote-pricing.js';
import { notConfigured } from '../../errors/not-configured.js';

/**
 * The 409 of a quote request whose Idempotency-Key was used for another request: a quote to an UMA
 * address sends a pay request, so it answers the spec's `DUPLICATE_PAY_REQUEST` ("pay request with
 * this idempotency key exists"); any other quote the generic `CONFLICT`.
 */
export function payRequestConflict(body: unknown): 'DUPLICATE_PAY_REQUEST' | undefined {
  const destination = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).destination : null;
  return typeof destination === 'object' &&
    destination !== null &&
    (destination as Record<string, unknown>).destinationType === 'UMA_ADDRESS'
    ? 'DUPLICATE_PAY_REQUEST'
    : undefined;
}

/** Who quotes (QuotesService's QuoteScope, restated here so this file imports no service). */
export interface UmaQuoteScope {
  platformId: string;
  customerId?: string;
  agentId?: string;
}

/**
 * A quote to an UMA address, priced by the pay-request exchange with the receiver's deployment
 * (src/uma/uma-payments.service.ts) before the quote's transaction opens.
 */
export interface UmaQuotePlan {
  /** The lookup's uuid (stored as the quote's destination_account_id). */
  lookupId: string;
  umaAddress: string;
  /** The receiving currency the counterparty committed to. */
  currency: string;
  /** The paying account's currency, as priced (the quote checks it again in its transaction). */
  sendingCurrency: string;
  price: Pricing;
  /** Records the exchange beside the quote, in the quote's transaction. */
  record(m: EntityManager, quote: QuoteEntity): Promise<void>;
}

/** The UMA area's pricing of UMA_ADDRESS destinations. */
export interface UmaQuoting {
  prepare(scope: UmaQuoteScope, body: QuoteRequest): Promise<UmaQuotePlan>;
}

/** A payment to an UMA address: the sender's money already sits in UMA_SETTLEMENT. */
export interface SettlementPayment {
  transactionId: string;
  quoteId: string;
  platformId: string;
  /** Minor units of `currency` (the receiving currency) owed to the receiver. */
  amount: bigint;
  currency: string;
  umaAddress: string;
}

/**
 * A settlement layer between UMA participants: `submit` accepts a payment inside the execution's
 * transaction (nothing may leave before it commits); the layer later reports the receiver's
 * decision through `QuoteExecutionService.settle`. The sandbox layer (signed callbacks between
 * deployments, src/uma/uma-settlement.service.ts) is the first; a real rail is another adapter.
 */
export abstract class SettlementLayer {
  abstract submit(m: EntityManager, payment: SettlementPayment, now: BusinessTime): Promise<void>;
}

/**
 * Where the quotes area finds the UMA area's pricing and settlement layer (the UMA module
 * registers them when it starts; quotes import no UMA code). Without it, UMA_ADDRESS destinations
 * are refused with 503 SERVICE_UNAVAILABLE (details.notConfigured: UMA_SIGNING_PRIVATE_KEY).
 */
@Injectable()
export class UmaDestinations {
  private quoting: UmaQuoting | null = null;
  private layer: SettlementLayer | null = null;

  register(quoting: UmaQuoting, layer: SettlementLayer): void {
    this.quoting = quoting;
    this.layer = layer;
  }

  prepare(scope: UmaQuoteScope, body: QuoteRequest): Promise<UmaQuotePlan> {
    if (!this.quoting) throw umaNotConfigured();
    return this.quoting.prepare(scope, body);
  }

  settlement(): SettlementLayer {
    if (!this.layer) throw umaNotConfigured();
    return this.layer;
  }
}

const umaNotConfigured = () =>
  notConfigured('UMA_SIGNING_PRIVATE_KEY', 'UMA payments are not available on this deployment');
