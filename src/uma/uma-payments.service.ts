import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  getPayRequest,
  KycStatus,
  PayReqResponse,
  verifyPayReqResponseSignature,
  type PubKeyResponse,
} from '@uma-sdk/core';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { addRoute, routingHash } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import type { QuoteRequest } from '../payments/quotes/quote.dto.js';
import type { QuoteEntity } from '../payments/quotes/quote.entity.js';
import { priceQuote, type Pricing } from '../payments/exchange-rates/quote-pricing.js';
import {
  UmaDestinations,
  type UmaQuotePlan,
  type UmaQuoteScope,
  type UmaQuoting,
} from '../payments/quotes/uma-destination.js';
import { CounterpartyHttp, type CounterpartyResponse } from './counterparty-http.js';
import { UmaRates } from './uma-currencies.js';
import { UmaKeysService } from './uma-keys.service.js';
import { UmaSettlementService } from './uma-settlement.service.js';
import { fromUmaError, UmaVerifier } from './uma-verifier.js';

/** A receiver's refusal codes that mean the same here (its 4xx with our catalogue's codes). */
const PASSED_THROUGH = new Set<string>([
  'SENDER_NOT_ACCEPTED',
  'INVALID_NONCE',
  'INVALID_TIMESTAMP',
  'CERT_CHAIN_INVALID',
  'CERT_CHAIN_EXPIRED',
  'INVALID_PUBKEY_FORMAT',
  'MISSING_REQUIRED_UMA_PARAMETERS',
  'INVALID_RECEIVER',
  'UMA_NOT_FOUND',
]);

interface LookupRow {
  id: string;
  customer_id: string | null;
  sender_uma_address: string | null;
  receiver_uma_address: string | null;
  response: {
    supportedCurrencies?: Array<{ currency: { code: string }; estimatedExchangeRate: number }>;
    callback?: string;
  };
}

interface SourceRow {
  id: string;
  customer_id: string | null;
  currency: string;
  kyc_status: string | null;
}

/**
 * The sending side of an UMA payment's quote (docs/uma.md): a quote to an UMA_ADDRESS destination
 * names the `lookupId` of a lookup of that address; a signed pay request (@uma-sdk/core's
 * `getPayRequest`) for the receiving amount goes to the receiver's callback; its signed
 * pay-request response (the amount it will credit, its conversion rate, its compliance data) is
 * checked and prices the quote. Registers itself and the settlement layer with the quotes area.
 */
@Injectable()
export class UmaPaymentsService implements UmaQuoting, OnModuleInit {
  private readonly rates: UmaRates;

  constructor(
    private readonly config: AppConfig,
    private readonly keys: UmaKeysService,
    private readonly verifier: UmaVerifier,
    private readonly http: CounterpartyHttp,
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly destinations: UmaDestinations,
    private readonly settlement: UmaSettlementService,
  ) {
    this.rates = new UmaRates(config.FX_RATES);
  }

  onModuleInit(): void {
    this.destinations.register(this, this.settlement);
  }

  async prepare(scope: UmaQuoteScope, body: QuoteRequest): Promise<UmaQuotePlan> {
    const errors = [];
    const lookupUuid = body.lookupId === undefined ? null : parseId('Lookup', body.lookupId);
    if (lookupUuid === null)
      errors.push(fieldError('lookupId', 'is required for an UMA_ADDRESS destination (a Lookup id)'));
    if (body.source.sourceType !== 'ACCOUNT') {
      errors.push(fieldError('source.sourceType', 'must be ACCOUNT for an UMA_ADDRESS destination'));
    }
    if (errors.length) throw invalidInput(errors);
    const receiverAddress = body.destination.umaAddress!;
    const [lookup] = await this.tx.query<LookupRow[]>(
      `SELECT id, customer_id, sender_uma_address, receiver_uma_address, response
         FROM uma_lookups WHERE id = $1 AND platform_id = $2`,
      [lookupUuid, scope.platformId],
    );
    if (!lookup) throw invalidInput([fieldError('lookupId', 'is not a lookup of this platform')]);
    if ((lookup.receiver_uma_address ?? '').toLowerCase() !== receiverAddress.toLowerCase()) {
      throw invalidInput([fieldError('lookupId', `was made for another receiver than ${receiverAddress}`)]);
    }
    const sourceUuid = parseId('InternalAccount', body.source.accountId!);
    const [source] = await this.tx.query<SourceRow[]>(
      `SELECT a.id, a.customer_id, a.currency, c.kyc_status
         FROM internal_accounts a LEFT JOIN customers c ON c.id = a.customer_id AND c.platform_id = a.platform_id
        WHERE a.id = $1 AND a.platform_id = $2`,
      [sourceUuid, scope.platformId],
    );
    if (!source) throw new ApiError('ACCOUNT_NOT_FOUND', `Account ${body.source.accountId} not found`);
    if (source.customer_id !== lookup.customer_id || !lookup.sender_uma_address) {
      throw invalidInput([fieldError('lookupId', "was made for another sender than the source account's customer")]);
    }
    const offered = lookup.response.supportedCurrencies ?? [];
    const currency = body.destination.currency ?? offered[0]?.currency.code;
    const offer = offered.find((c) => c.currency.code === currency);
    if (!currency || !offer || !lookup.response.callback) {
      throw new ApiError('INVALID_CURRENCY', `${receiverAddress} does not receive ${currency ?? 'any currency'}`, {
        details: { offered: offered.map((c) => c.currency.code) },
      });
    }
    const sending = currencyInfo(source.currency);
    const receiving = currencyInfo(currency);
    const price = (multiplier: number, side = body.lockedCurrencySide, amount = body.lockedCurrencyAmount) =>
      priceQuote({
        side,
        amount,
        sendingDecimals: sending.decimals,
        receivingDecimals: receiving.decimals,
        multiplier,
        crossCurrency: sending.code !== receiving.code,
        fixedFee: this.config.QUOTE_FIXED_FEE,
        variableFeeRate: this.config.QUOTE_VARIABLE_FEE_RATE,
        platformFixedFee: body.platformFeeOverride?.platformFixedFee.amount,
        platformVariableFeeRate: body.platformFeeOverride
          ? body.platformFeeOverride.platformVariableFeeBps / 10_000
          : undefined,
      });
    const estimate = price(offer.estimatedExchangeRate);
    if (!estimate) {
      throw new ApiError('INVALID_AMOUNT', 'lockedCurrencyAmount is too small to cover the fees, or too large', {
        details: { lockedCurrencyAmount: body.lockedCurrencyAmount },
      });
    }
    const receivingAmount = estimate.totalReceivingAmount;
    const exchange = await this.exchange(
      lookup.sender_uma_address,
      receiverAddress,
      lookup.response.callback,
      currency,
      receivingAmount,
      source.kyc_status === 'APPROVED' ? KycStatus.Verified : KycStatus.NotVerified,
    );
    const rate = this.rates.estimatedRate(sending.code, exchange.multiplier, receiving.decimals);
    const final = rate === null ? null : price(rate);
    if (rate === null || !final) {
      throw new ApiError('INVALID_PAYREQ_RESPONSE', `The conversion rate of ${exchange.domain} cannot price the quote`);
    }
    // The receiver committed to `receivingAmount`: that is what the quote delivers.
    const pricing: Pricing =
      body.lockedCurrencySide === 'SENDING' ? { ...final, totalReceivingAmount: receivingAmount } : final;
    const senderAddress = lookup.sender_uma_address;
    const now = this.clock.now();
    return {
      lookupId: lookup.id,
      umaAddress: receiverAddress,
      currency,
      sendingCurrency: sending.code,
      price: pricing,
      record: async (m: EntityManager, quote: QuoteEntity) => {
        // The receiver's decision names only the transaction: routed (kind `uma_payment`).
        await addRoute(m, 'uma_payment', routingHash(quote.transactionId), quote.platformId);
        await m.query(
          `INSERT INTO uma_payments (quote_id, platform_id, transaction_id, lookup_id, sender_uma_address,
                                     receiver_uma_address, receiver_domain, receiving_currency, receiving_amount,
                                     multiplier, payer_data, payee_data, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'QUOTED', $13, $13)`,
          [
            quote.id,
            quote.platformId,
            quote.transactionId,
            lookup.id,
            senderAddress,
            receiverAddress,
            exchange.domain,
            currency,
            String(receivingAmount),
            exchange.multiplier,
            JSON.stringify({ identifier: senderAddress, ...(body.senderCustomerInfo ?? {}) }),
            JSON.stringify(exchange.payeeData ?? null),
            now,
          ],
        );
      },
    };
  }

  /** The pay-request exchange: the signed request, the receiver's signed response, checked. */
  private async exchange(
    sender: string,
    receiver: string,
    callback: string,
    currency: string,
    amount: number,
    payerKycStatus: KycStatus,
  ): Promise<{ domain: string; multiplier: number; payeeData: unknown }> {
    const domain = receiver.split('@')[1].toLowerCase();
    const id = await this.keys.load();
    const receiverKeys: PubKeyResponse = await this.verifier.counterpartyKeys(domain);
    let request;
    try {
      request = await getPayRequest({
        receiverEncryptionPubKey: receiverKeys.getEncryptionPubKey(),
        sendingVaspPrivateKey: id.signingKey,
        receivingCurrencyCode: currency,
        isAmountInReceivingCurrency: true,
        amount,
        payerIdentifier: sender,
        payerKycStatus,
        umaMajorVersion: 1,
        utxoCallback: `${this.keys.baseUrl(id.domain)}/.well-known/uma-settlement`,
      });
    } catch (error) {
      throw fromUmaError(error, 'QUOTE_REQUEST_FAILED', `The pay request to ${domain} could not be made`);
    }
    let answer: CounterpartyResponse;
    try {
      answer = await this.http.post(new URL(callback), request.toJsonString());
    } catch (error) {
      throw new ApiError('QUOTE_REQUEST_FAILED', `${domain} could not be reached: ${(error as Error).message}`, {
        retryable: true,
      });
    }
    if (answer.status !== 200) this.refusal(answer, domain);
    let response: PayReqResponse;
    try {
      response = PayReqResponse.fromJson(answer.body);
    } catch (error) {
      throw fromUmaError(error, 'PARSE_PAYREQ_RESPONSE_ERROR', `The pay-request response of ${domain} is malformed`);
    }
    const converted = response.converted;
    if (!response.isUma() || !converted) {
      throw new ApiError('INVALID_PAYREQ_RESPONSE', `The pay-request response of ${domain} is not an UMA response`);
    }
    if (converted.currencyCode !== currency || converted.amount !== amount || !(converted.multiplier > 0)) {
      throw new ApiError(
        'INVALID_PAYREQ_RESPONSE',
        `${domain} answered ${converted.amount} ${converted.currencyCode} for ${amount} ${currency}`,
        {
          details: {
            requested: { amount, currency },
            answered: { amount: converted.amount, currency: converted.currencyCode },
          },
        },
      );
    }
    const compliance = response.payeeData?.compliance as { signatureTimestamp?: number } | undefined;
    this.verifier.checkTimestamp(compliance?.signatureTimestamp, 'pay-request response');
    let valid: boolean;
    try {
      valid = await verifyPayReqResponseSignature(
        response,
        sender,
        receiver,
        receiverKeys,
        this.verifier.nonces(domain),
      );
    } catch (error) {
      throw fromUmaError(error, 'INVALID_PAYREQ_RESPONSE', `The pay-request response of ${domain} was refused`);
    }
    if (!valid) {
      throw new ApiError(
        'INVALID_PAYREQ_RESPONSE',
        `The pay-request response's signature does not verify with the keys of ${domain}`,
        { details: { cause: 'INVALID_SIGNATURE' } },
      );
    }
    return { domain, multiplier: converted.multiplier, payeeData: response.payeeData };
  }

  /** The receiver refused the pay request: its spec code, else QUOTE_REQUEST_FAILED. */
  private refusal(answer: CounterpartyResponse, domain: string): never {
    let code: unknown;
    try {
      code = (JSON.parse(answer.body) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    if (
      answer.status >= 400 &&
      answer.status < 500 &&
      typeof code === 'string' &&
      PASSED_THROUGH.has(code) &&
      Object.hasOwn(errorCatalogue(), code)
    ) {
      throw new ApiError(code as ErrorCode, `${domain} refused the pay request (${code})`, {
        details: { counterpartyStatus: answer.status },
      });
    }
    if (answer.status >= 500 && (code === 'SERVICE_SWITCH_ERROR' || code === 'GRID_SWITCH_ERROR')) {
      // The receiving participant says its payment switch failed (the reference's GRID_SWITCH_ERROR,
      // the spec's SERVICE_SWITCH_ERROR): the payment network, not this request, is at fault.
      throw new ApiError(
        'SERVICE_SWITCH_ERROR',
        `The payment switch of ${domain} failed on the pay request; retry later`,
        { details: { counterpartyStatus: answer.status, counterpartyCode: code }, retryable: true },
      );
    }
    throw new ApiError('QUOTE_REQUEST_FAILED', `${domain} answered the pay request with status ${answer.status}`, {
      details: {
        counterpartyStatus: answer.status,
        ...(typeof code === 'string' ? { counterpartyCode: code.slice(0, 100) } : {}),
      },
      retryable: answer.status >= 500,
    });
  }
}
