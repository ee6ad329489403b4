import { Injectable } from '@nestjs/common';
import {
  Currency,
  getLnurlpResponse,
  getPayReqResponse,
  PayRequest,
  verifyPayReqSignature,
  isLnurlpRequestForUma,
  KycStatus,
  parseLnurlpRequest,
  UnsupportedVersionError,
  verifyUmaLnurlpQuerySignature,
  type LnurlpRequest,
} from '@uma-sdk/core';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { UmaRates } from './uma-currencies.js';
import { isUmaAddress } from './uma-domain.js';
import { UmaAddressRoutes } from './uma-address-routes.js';
import { UmaKeysService } from './uma-keys.service.js';
import { fromUmaError, UmaVerifier } from './uma-verifier.js';

/** Receivable per payment, minor units of the currency, as published in the lnurlp response. */
const MIN_RECEIVABLE = 1;
const MAX_RECEIVABLE = 100_000_000;

interface ReceiverRow {
  id: string;
  uma_address: string;
  currencies: string[];
  created_at: Date;
}

/**
 * This deployment as the receiving side of UMA: `GET /.well-known/lnurlp/{user}` verifies the
 * sender's signed request (its keys, certificate chain, timestamp, nonce and signature, with
 * @uma-sdk/core) and answers the receiver's signed lnurlp response (currencies, limits, payer data).
 */
@Injectable()
export class UmaReceiverService {
  private readonly rates: UmaRates;

  constructor(
    config: AppConfig,
    private readonly keys: UmaKeysService,
    private readonly verifier: UmaVerifier,
    private readonly tx: TransactionService,
  ) {
    this.rates = new UmaRates(config.FX_RATES);
  }

  async lnurlp(path: string): Promise<Record<string, unknown>> {
    const id = await this.keys.load();
    const url = new URL(path, this.keys.baseUrl(id.domain));
    let request: LnurlpRequest;
    try {
      request = parseLnurlpRequest(url);
    } catch (error) {
      if (error instanceof UnsupportedVersionError) {
        throw new ApiError('UNSUPPORTED_UMA_VERSION', `UMA version ${error.unsupportedVersion} is not supported`, {
          details: { supportedMajorVersions: error.supportedMajorVersions },
        });
      }
      throw fromUmaError(error, 'MISSING_REQUIRED_UMA_PARAMETERS', 'Malformed lnurlp request');
    }
    if (!isLnurlpRequestForUma(request)) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'Only signed UMA lnurlp requests are answered');
    }
    this.verifier.checkTimestamp(request.timestamp, 'lnurlp request');
    const senderKeys = await this.verifier.counterpartyKeys(request.vaspDomain);
    let valid: boolean;
    try {
      valid = await verifyUmaLnurlpQuerySignature(request, senderKeys, this.verifier.nonces(request.vaspDomain));
    } catch (error) {
      throw fromUmaError(error, 'INVALID_SIGNATURE', 'The lnurlp request was refused');
    }
    if (!valid)
      throw new ApiError(
        'INVALID_SIGNATURE',
        `The lnurlp request's signature does not verify with the keys of ${request.vaspDomain}`,
      );

    const receiver = await this.receiver(request.receiverAddress);
    const address = receiver.uma_address;
    const currencies = receiver.currencies
      .map((code) => {
        const multiplier = this.rates.msatsPerMinorUnit(code);
        if (multiplier === null) return null;
        const info = currencyInfo(code);
        return new Currency(code, info.name, info.symbol, multiplier, MIN_RECEIVABLE, MAX_RECEIVABLE, info.decimals);
      })
      .filter((c): c is Currency => c !== null);
    const response = await getLnurlpResponse({
      request,
      privateKeyBytes: id.signingKey,
      requiresTravelRuleInfo: false,
      callback: `${this.keys.baseUrl(id.domain)}/.well-known/lnurlp/${encodeURIComponent(address.split('@')[0])}/payreq`,
      encodedMetadata: JSON.stringify([
        ['text/plain', `Pay to ${address}`],
        ['text/identifier', address],
      ]),
      minSendableSats: 1,
      maxSendableSats: 10_000_000_000,
      payerDataOptions: {
        identifier: { mandatory: true },
        name: { mandatory: false },
        email: { mandatory: false },
        compliance: { mandatory: true },
      },
      currencyOptions: currencies,
      receiverKycStatus: KycStatus.Verified,
    });
    return JSON.parse(response.toJsonString()) as Record<string, unknown>;
  }

  /**
   * `POST /.well-known/lnurlp/{user}/payreq` (the callback of the lnurlp response): a sender's
   * signed pay request, verified as an lnurlp request is (timestamp, keys and chain, nonce,
   * signature); a sender whose customer is not KYC-verified is refused (SENDER_NOT_ACCEPTED). The
   * answer is the signed pay-request response: the amount in the receiving currency this
   * deployment will credit, its conversion rate (millisatoshis per minor unit) and the payee's
   * compliance data. Nothing is recorded: the payment itself arrives as a settlement callback.
   */
  async payreq(username: string, body: unknown): Promise<Record<string, unknown>> {
    const id = await this.keys.load();
    let request: PayRequest;
    try {
      request = PayRequest.fromJson(JSON.stringify(body ?? null));
    } catch (error) {
      throw fromUmaError(error, 'MISSING_REQUIRED_UMA_PARAMETERS', 'Malformed pay request');
    }
    const payer = request.payerData?.identifier;
    const compliance = request.payerData?.compliance;
    if (!request.isUma() || !payer || !compliance) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'Only signed UMA pay requests are answered');
    }
    this.verifier.checkTimestamp(compliance.signatureTimestamp, 'pay request');
    // The library's getVaspDomainFromUmaAddress refuses a domain with a port (`localhost:8080`).
    if (!isUmaAddress(payer)) throw new ApiError('INVALID_UMA_ADDRESS', 'The payer identifier is not an UMA address');
    const senderDomain = payer.split('@')[1].toLowerCase();
    const senderKeys = await this.verifier.counterpartyKeys(senderDomain);
    let valid: boolean;
    try {
      valid = await verifyPayReqSignature(request, senderKeys, this.verifier.nonces(senderDomain));
    } catch (error) {
      throw fromUmaError(error, 'INVALID_SIGNATURE', 'The pay request was refused');
    }
    if (!valid) {
      throw new ApiError(
        'INVALID_SIGNATURE',
        `The pay request's signature does not verify with the keys of ${senderDomain}`,
      );
    }
    if (compliance.kycStatus !== KycStatus.Verified) {
      throw new ApiError('SENDER_NOT_ACCEPTED', `${payer} is not a KYC-verified sender (${compliance.kycStatus})`);
    }
    const receiver = await this.receiver(`$${username.replace(/^\$/, '')}@${id.domain}`);
    const code = request.receivingCurrencyCode;
    const multiplier = code ? this.rates.msatsPerMinorUnit(code) : null;
    if (!code || multiplier === null || !receiver.currencies.includes(code)) {
      throw new ApiError('INVALID_CURRENCY', `${receiver.uma_address} does not receive ${code ?? 'that currency'}`);
    }
    const address = receiver.uma_address;
    const callback = `${this.keys.baseUrl(id.domain)}/.well-known/uma-settlement`;
    let response;
    try {
      response = await getPayReqResponse({
        request,
        conversionRate: multiplier,
        receivingCurrencyCode: code,
        receivingCurrencyDecimals: currencyInfo(code).decimals,
        invoiceCreator: {
          // The sandbox settlement layer needs no Lightning invoice: a reference stands in for it.
          createUmaInvoice: (amountMsats: number) => Promise.resolve(`sandbox:${address}:${amountMsats}`),
        },
        metadata: JSON.stringify([
          ['text/plain', `Pay to ${address}`],
          ['text/identifier', address],
        ]),
        receiverChannelUtxos: [],
        receiverFeesMillisats: 0,
        utxoCallback: callback,
        payeeData: { identifier: address },
        receivingVaspPrivateKey: id.signingKey,
        payeeIdentifier: address,
      });
    } catch (error) {
      throw fromUmaError(error, 'MISSING_REQUIRED_UMA_PARAMETERS', 'The pay request cannot be answered');
    }
    return JSON.parse(response.toJsonString()) as Record<string, unknown>;
  }

  /**
   * The active customer holding the address on this deployment (the oldest, should two platforms
   * hold it): found on the platforms the address routes to (UmaAddressRoutes), pinned on each.
   */
  private async receiver(receiverAddress: string): Promise<ReceiverRow> {
    const [user, domain] = receiverAddress.split('@');
    const address = `${user.startsWith('$') ? '' : '$'}${user}@${domain}`;
    const row = await UmaAddressRoutes.oldest(this.tx, address, (platformId) =>
      this.tx.query<ReceiverRow[]>(
        `SELECT c.id, c.uma_address, c.created_at,
                coalesce(nullif(array(SELECT DISTINCT a.currency FROM internal_accounts a
                                       WHERE a.customer_id = c.id AND a.platform_id = c.platform_id
                                       ORDER BY a.currency), '{}'), c.currencies) AS currencies
           FROM customers c
          WHERE c.platform_id = $2 AND lower(c.uma_address) = lower($1) AND NOT c.is_deleted
          ORDER BY c.created_at, c.id LIMIT 1`,
        [address, platformId],
      ),
    );
    if (!row) throw new ApiError('UMA_NOT_FOUND', `No receiver ${address} on this deployment`);
    const currencies = row.currencies.length ? row.currencies : ['USD'];
    return { ...row, currencies };
  }
}
