import { Injectable } from '@nestjs/common';
import { getSignedLnurlpRequestUrl, LnurlpResponse, verifyUmaLnurlpResponseSignature } from '@uma-sdk/core';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ExternalAccountsService } from '../external-accounts/external-accounts.service.js';
import { FxRatesService } from '../payments/exchange-rates/fx-rates.service.js';
import { CounterpartyHttp, type CounterpartyResponse } from './counterparty-http.js';
import { PAYER_DATA_FIELDS, UmaRates } from './uma-currencies.js';
import { isUmaAddress } from './uma-domain.js';
import { UmaKeysService } from './uma-keys.service.js';
import { fromUmaError, UmaVerifier } from './uma-verifier.js';

export interface CurrencyPreference {
  currency: { code: string; name: string; symbol: string; decimals: number };
  estimatedExchangeRate: number;
  min: number;
  max: number;
}

export interface ReceiverLookupResponse {
  lookupId: string;
  supportedCurrencies: CurrencyPreference[];
  requiredPayerDataFields: Array<{ name: string; mandatory: boolean }>;
}

export interface SenderQuery {
  senderUmaAddress?: string;
  customerId?: string;
}

interface SenderRow {
  id: string;
  uma_address: string;
  currency: string | null;
}

/** Codes a refusing counterparty answers that mean the same here (its 4xx with our catalogue's codes). */
const PASSED_THROUGH = new Set<string>([
  'INVALID_NONCE',
  'INVALID_TIMESTAMP',
  'CERT_CHAIN_INVALID',
  'CERT_CHAIN_EXPIRED',
  'INVALID_PUBKEY_FORMAT',
  'MISSING_REQUIRED_UMA_PARAMETERS',
  'SENDER_NOT_ACCEPTED',
  'INVALID_RECEIVER',
]);

/**
 * `GET /receiver/uma/{address}`: the sending side of UMA's lookup, every message made and checked
 * by @uma-sdk/core. A signed lnurlp request to the receiver's domain; its signed response checked
 * (receiver, timestamp, keys and certificate chain, nonce, signature); the currencies, rates and
 * limits it offers and the payer data it asks for, recorded under a `lookupId` for the quote.
 * `GET /receiver/external-account/{id}` answers the same shape for an external account.
 */
@Injectable()
export class UmaLookupService {
  private readonly rates: UmaRates;

  constructor(
    config: AppConfig,
    private readonly keys: UmaKeysService,
    private readonly verifier: UmaVerifier,
    private readonly http: CounterpartyHttp,
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly externalAccounts: ExternalAccountsService,
    private readonly fx: FxRatesService,
  ) {
    this.rates = new UmaRates(config.FX_RATES);
  }

  async lookupUma(
    platformId: string,
    receiverUmaAddress: string,
    query: SenderQuery,
  ): Promise<ReceiverLookupResponse & { receiverUmaAddress: string }> {
    const sender = await this.sender(platformId, query, receiverUmaAddress);
    const id = await this.keys.load();
    const domain = receiverUmaAddress.split('@')[1].toLowerCase();
    let url: URL;
    try {
      url = await getSignedLnurlpRequestUrl({
        isSubjectToTravelRule: true,
        receiverAddress: receiverUmaAddress,
        senderVaspDomain: id.domain,
        signingPrivateKey: id.signingKey,
      });
    } catch (error) {
      throw fromUmaError(error, 'INVALID_UMA_ADDRESS', `Cannot address ${receiverUmaAddress}`);
    }
    let answer: CounterpartyResponse;
    try {
      answer = await this.http.get(url);
    } catch (error) {
      throw new ApiError('LNURLP_REQUEST_FAILED', `${domain} could not be reached: ${(error as Error).message}`, {
        retryable: true,
      });
    }
    this.refusal(answer, receiverUmaAddress, domain);

    let response: LnurlpResponse;
    try {
      response = LnurlpResponse.fromJson(answer.body);
    } catch (error) {
      throw fromUmaError(error, 'PARSE_LNURLP_RESPONSE_ERROR', `The lnurlp response of ${domain} is malformed`);
    }
    if (!response.isUma()) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', `The lnurlp response of ${domain} is not an UMA response`);
    }
    const compliance = response.compliance;
    if (compliance.receiverIdentifier.toLowerCase() !== receiverUmaAddress.toLowerCase()) {
      throw new ApiError(
        'INVALID_RECEIVER',
        `${domain} answered for ${compliance.receiverIdentifier}, not ${receiverUmaAddress}`,
      );
    }
    this.verifier.checkTimestamp(compliance.signatureTimestamp, 'lnurlp response');
    const receiverKeys = await this.verifier.counterpartyKeys(domain);
    let valid: boolean;
    try {
      valid = await verifyUmaLnurlpResponseSignature(response, receiverKeys, this.verifier.nonces(domain));
    } catch (error) {
      throw fromUmaError(error, 'LOOKUP_REQUEST_FAILED', `The lnurlp response of ${domain} was refused`);
    }
    if (!valid) {
      throw new ApiError(
        'LOOKUP_REQUEST_FAILED',
        `The lnurlp response's signature does not verify with the keys of ${domain}`,
        {
          details: { cause: 'INVALID_SIGNATURE' },
        },
      );
    }

    const from = sender.currency ?? 'USD';
    const supportedCurrencies: CurrencyPreference[] = [];
    for (const c of response.currencies ?? []) {
      const rate = this.rates.estimatedRate(from, c.multiplier, c.decimals);
      if (rate === null || !(rate > 0)) continue;
      supportedCurrencies.push({
        currency: { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals },
        estimatedExchangeRate: rate,
        min: Math.max(1, Math.trunc(c.minSendable)),
        max: Math.max(1, Math.trunc(c.maxSendable)),
      });
    }
    const requiredPayerDataFields = Object.entries(response.payerData ?? {})
      .filter(([key]) => Object.hasOwn(PAYER_DATA_FIELDS, key))
      .map(([key, option]) => ({ name: PAYER_DATA_FIELDS[key], mandatory: option.mandatory }));
    const body = { supportedCurrencies, requiredPayerDataFields };
    const lookupId = await this.record(platformId, sender.id, sender.uma_address, receiverUmaAddress, null, {
      ...body,
      callback: response.callback,
      umaVersion: response.umaVersion,
    });
    return { receiverUmaAddress, lookupId, ...body };
  }

  async lookupExternalAccount(
    platformId: string,
    accountId: string,
    query: SenderQuery,
  ): Promise<ReceiverLookupResponse & { accountId: string }> {
    const sender = await this.sender(platformId, query, null);
    const uuid = parseId('ExternalAccount', accountId);
    const notFound = () => new ApiError('ACCOUNT_NOT_FOUND', `External account ${accountId} not found`);
    if (!uuid) throw notFound();
    let account: { currency: string };
    try {
      account = await this.externalAccounts.get(platformId, { kind: 'customer' }, uuid);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'ACCOUNT_NOT_FOUND') throw error;
      account = await this.externalAccounts.get(platformId, { kind: 'platform' }, uuid);
    }
    const from = sender.currency ?? 'USD';
    const rate = this.fx.rate(from, account.currency).multiplier;
    const info = currencyInfo(account.currency);
    const body: ReceiverLookupResponse['supportedCurrencies'] = [
      {
        currency: { code: info.code, name: info.name, symbol: info.symbol, decimals: info.decimals },
        estimatedExchangeRate: Number(rate.toPrecision(8)),
        min: 1,
        max: 100_000_000,
      },
    ];
    const requiredPayerDataFields: ReceiverLookupResponse['requiredPayerDataFields'] = [];
    const lookupId = await this.record(platformId, sender.id, sender.uma_address, null, uuid, {
      supportedCurrencies: body,
      requiredPayerDataFields,
    });
    return { accountId, lookupId, supportedCurrencies: body, requiredPayerDataFields };
  }

  /** The counterparty's non-200 answers, as the reference maps them (404, 412, 424) or its spec code. */
  private refusal(answer: CounterpartyResponse, receiver: string, domain: string): void {
    if (answer.status === 200) return;
    let code: unknown;
    try {
      code = (JSON.parse(answer.body) as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    if (answer.status === 404) throw new ApiError('UMA_NOT_FOUND', `${domain} has no receiver ${receiver}`);
    if (answer.status === 412) {
      throw new ApiError('UNSUPPORTED_UMA_VERSION', `${domain} does not support this UMA version`);
    }
    if (answer.status >= 400 && answer.status < 500) {
      if (typeof code === 'string' && PASSED_THROUGH.has(code) && Object.hasOwn(errorCatalogue(), code)) {
        throw new ApiError(code as ErrorCode, `${domain} refused the lookup (${code})`, {
          details: { counterpartyStatus: answer.status },
        });
      }
      throw new ApiError('LOOKUP_REQUEST_FAILED', `${domain} refused the lookup with status ${answer.status}`, {
        details: {
          counterpartyStatus: answer.status,
          ...(typeof code === 'string' ? { counterpartyCode: code.slice(0, 100) } : {}),
        },
      });
    }
    throw new ApiError('LNURLP_REQUEST_FAILED', `${domain} answered ${answer.status}`, {
      details: { counterpartyStatus: answer.status },
      retryable: true,
    });
  }

  /** The sending customer (one of `customerId`, `senderUmaAddress`; both must agree), and every bad input at once. */
  private async sender(platformId: string, query: SenderQuery, receiver: string | null): Promise<SenderRow> {
    const errors = [];
    if (receiver !== null && !isUmaAddress(receiver)) {
      throw new ApiError('INVALID_UMA_ADDRESS', `${JSON.stringify(receiver.slice(0, 200))} is not an UMA address`);
    }
    const customerUuid = query.customerId === undefined ? undefined : parseId('Customer', query.customerId);
    if (customerUuid === null) errors.push(fieldError('customerId', 'must be a Customer id'));
    if (query.senderUmaAddress !== undefined && !isUmaAddress(query.senderUmaAddress)) {
      throw new ApiError('INVALID_UMA_ADDRESS', `senderUmaAddress is not an UMA address`);
    }
    if (query.customerId === undefined && query.senderUmaAddress === undefined) {
      errors.push(fieldError('customerId', 'customerId or senderUmaAddress is required'));
    }
    if (errors.length) throw invalidInput(errors);
    const rows = await this.tx.query<SenderRow[]>(
      `SELECT c.id, c.uma_address,
              (SELECT a.currency FROM internal_accounts a
                WHERE a.customer_id = c.id AND a.platform_id = c.platform_id ORDER BY a.created_at, a.id LIMIT 1)
                AS currency
         FROM customers c
        WHERE c.platform_id = $1 AND NOT c.is_deleted
          AND ($2::uuid IS NULL OR c.id = $2::uuid)
          AND ($3::text IS NULL OR lower(c.uma_address) = lower($3::text))
        LIMIT 1`,
      [platformId, customerUuid ?? null, query.senderUmaAddress ?? null],
    );
    if (!rows[0]) throw new ApiError('CUSTOMER_NOT_FOUND', 'The sending customer was not found');
    return rows[0];
  }

  private async record(
    platformId: string,
    customerId: string,
    senderAddress: string,
    receiverAddress: string | null,
    externalAccountId: string | null,
    response: object,
  ): Promise<string> {
    const uuid = newUuid();
    await this.tx.query(
      `INSERT INTO uma_lookups (id, platform_id, customer_id, sender_uma_address, receiver_uma_address,
                                external_account_id, response, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        uuid,
        platformId,
        customerId,
        senderAddress,
        receiverAddress,
        externalAccountId,
        JSON.stringify(response),
        this.clock.now(),
      ],
    );
    return formatId('Lookup', uuid);
  }
}
