import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../../errors/api-error.js';
import type { OperationOutcome, OperationStatus } from '../stablecoin.types.js';
import {
  type ExternalAccountFacts,
  type ProviderAccountRef,
  type ProviderCredentials,
  type ProviderOperationPlan,
  type ProviderOperationRequest,
  type ProviderStep,
  type ProviderToken,
  StablecoinProvider,
} from './stablecoin-provider.js';

/** Real-time milliseconds between the sandbox provider's steps. */
export const SANDBOX_PROVIDER_STEP_MS = 1000;

/** Fiat codes a coin's symbol may not take (it would share their ledger currency). */
const FIAT_LIKE = /^(USD|EUR|GBP|MXN|BRL|CAD|JPY|CHF|AUD|INR|NGN|KES|PHP|SGD|HKD|CNY|ZAR)$/;

/**
 * The sandbox's magic values: the last three digits of the operation's amount in fiat cents pick
 * the outcome, as the sandbox rail's do (docs/stablecoins.md):
 * `...001` the provider rejects it (400 STABLECOIN_PROVIDER_ERROR), `...002` it FAILS after PROCESSING,
 * `...003` the provider EXPIRES it after PENDING_PROVIDER, `...004` its funds never arrive (it stays
 * PENDING_FUNDING until `expiresAt`, then EXPIRED), `...005` the provider is unavailable (503);
 * anything else COMPLETES within seconds (once funded, for a wire or an external-wallet burn).
 */
export function sandboxOperationMagic(fiatCents: bigint): OperationOutcome | 'PROVIDER_ERROR' | 'UNAVAILABLE' {
  switch (Number(fiatCents % 1000n)) {
    case 1:
      return 'PROVIDER_ERROR';
    case 2:
      return 'FAIL';
    case 3:
      return 'EXPIRE';
    case 4:
      return 'NEVER_FUNDED';
    case 5:
      return 'UNAVAILABLE';
    default:
      return 'COMPLETE';
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A Brale-looking account id (27 base62-ish characters), fixed for the client id. */
function accountIdOf(seed: string): string {
  return digest(seed).toString('base64url').replace(/[-_]/g, 'x').slice(0, 27);
}

/**
 * The sandbox stand-in for Brale (provider BRALE). Credentials verify when the secret is the client
 * id followed by `_secret`; a client id starting `unavailable` answers 503, one starting `multi`
 * exposes two provider accounts (`providerAccountId` then chooses), one containing `nobalance` has
 * no provider internal balance. Tokens: any `providerTokenIdentifier` is known (symbol: its part
 * before `_`, upper-cased; 6 decimals; USD) except one starting `UNKNOWN` or a network token
 * identifier not starting `btkn`; the suffixes `_REVIEW`, `_PROVISIONING`, `_REJECTED`, `_FAILED`
 * choose its issuance status. External bank accounts whose number ends `0401`..`0404` choose a link
 * refusal. Operations advance on real time (SANDBOX_PROVIDER_STEP_MS apart), their magic amounts above.
 */
@Injectable()
export class SandboxStablecoinProvider extends StablecoinProvider {
  verifyCredentials(credentials: ProviderCredentials): { providerAccountId: string } {
    const { apiClientId, apiClientSecret } = credentials;
    if (apiClientId.startsWith('unavailable'))
      throw new ApiError('SERVICE_UNAVAILABLE', 'The stablecoin provider is temporarily unavailable; retry later');
    if (apiClientSecret !== `${apiClientId}_secret`)
      throw new ApiError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        'The provider did not accept these API credentials (apiClientId and apiClientSecret)',
      );
    const base = accountIdOf(apiClientId);
    const exposed = apiClientId.startsWith('multi') ? [`${base.slice(0, 26)}A`, `${base.slice(0, 26)}B`] : [base];
    if (credentials.providerAccountId === undefined) {
      if (exposed.length > 1)
        throw new ApiError(
          'INVALID_INPUT',
          'These credentials expose several provider accounts: pass providerAccountId',
          {
            details: {
              errors: [
                {
                  field: 'providerAccountId',
                  message: `required: the credentials expose ${exposed.length} provider accounts (${exposed.join(', ')})`,
                },
              ],
            },
          },
        );
      return { providerAccountId: exposed[0] };
    }
    if (!exposed.includes(credentials.providerAccountId))
      throw new ApiError(
        'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
        `The credentials do not give access to provider account ${credentials.providerAccountId}`,
      );
    return { providerAccountId: credentials.providerAccountId };
  }

  token(
    _account: ProviderAccountRef,
    request: { providerTokenIdentifier: string; networkTokenIdentifier: string },
  ): ProviderToken {
    const { providerTokenIdentifier: value, networkTokenIdentifier } = request;
    const [head, ...rest] = value.split('_');
    const symbol = head.toUpperCase();
    if (value.toUpperCase().startsWith('UNKNOWN') || !/^[A-Z][A-Z0-9]{1,11}$/.test(symbol))
      throw new ApiError('STABLECOIN_VERIFICATION_FAILED', `The provider has no token ${value} for this account`);
    if (!networkTokenIdentifier.startsWith('btkn'))
      throw new ApiError(
        'STABLECOIN_VERIFICATION_FAILED',
        `Token ${value} is not ${networkTokenIdentifier} on SPARK (a Spark token identifier starts with btkn)`,
      );
    if (FIAT_LIKE.test(symbol))
      throw new ApiError('STABLECOIN_VERIFICATION_FAILED', `The symbol ${symbol} is a fiat currency code`);
    const suffix = rest.join('_').toUpperCase();
    const issuanceStatus =
      suffix === 'REVIEW'
        ? 'PENDING_REVIEW'
        : suffix === 'PROVISIONING'
          ? 'PROVISIONING'
          : suffix === 'REJECTED'
            ? 'REJECTED'
            : suffix === 'FAILED'
              ? 'FAILED'
              : 'PROVISIONED';
    const name = `${symbol.charAt(0)}${symbol.slice(1).toLowerCase()} Dollar`;
    return { name, symbol, decimals: 6, baseCurrency: 'USD', issuanceStatus };
  }

  linkExternalAccount(account: ProviderAccountRef, facts: ExternalAccountFacts): { providerAddressId: string } {
    const last4 = facts.identifier.slice(-4);
    if (last4 === '0401')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED',
        `The provider refused to link external account ${facts.id}`,
      );
    if (last4 === '0402')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED',
        `Linking external account ${facts.id} for stablecoin operations failed (the beneficiary could not be matched)`,
      );
    if (last4 === '0403' && facts.purpose === 'DEBIT')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED',
        `External account ${facts.id} has no debit link method (an ACH debit authorization) at the provider`,
      );
    if (last4 === '0404')
      throw new ApiError(
        'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED',
        `External account ${facts.id} is held for review at the provider: it must be linked there first`,
      );
    return { providerAddressId: accountIdOf(`${account.providerAccountId}:${facts.identifier}`) };
  }

  requireInternalBalance(account: ProviderAccountRef, symbol: string): void {
    if (account.apiClientId.includes('nobalance'))
      throw new ApiError(
        'STABLECOIN_PROVIDER_SOURCE_NOT_LINKED',
        `Provider account ${account.providerAccountId} has no internal ${symbol} balance linked`,
      );
  }

  createOperation(account: ProviderAccountRef, request: ProviderOperationRequest): ProviderOperationPlan {
    const magic = sandboxOperationMagic(request.fiatAmount);
    if (magic === 'UNAVAILABLE')
      throw new ApiError('SERVICE_UNAVAILABLE', 'The stablecoin provider is temporarily unavailable; retry later');
    if (magic === 'PROVIDER_ERROR')
      throw new ApiError('STABLECOIN_PROVIDER_ERROR', 'The provider rejected the operation', {
        details: { providerStatus: 'rejected' },
      });
    const providerOperationId = `brale_sbx_${request.operationId.replace(/-/g, '')}`;
    const awaitsFunds =
      (request.operationType === 'MINT' && request.sourceType === 'WIRE') ||
      (request.operationType === 'BURN' && request.sourceType === 'EXTERNAL_ACCOUNT') ||
      magic === 'NEVER_FUNDED';
    let fundingInstructions: Record<string, string> | null = null;
    if (request.operationType === 'MINT' && request.sourceType === 'WIRE') {
      fundingInstructions = {
        rail: 'WIRE',
        bankName: 'Sandbox Trust Bank',
        beneficiaryName: 'Brale Inc. (sandbox)',
        accountNumber: `99${digest(account.providerAccountId).readUInt32BE(0).toString().padStart(10, '0')}`,
        routingNumber: '021000021',
        reference: `BRALE-${request.operationId.slice(-12).toUpperCase()}`,
        amount: request.fiatAmount.toString(),
        currency: request.fiatCurrency,
        valueType: request.symbol,
      };
    } else if (request.operationType === 'BURN' && request.sourceType === 'EXTERNAL_ACCOUNT') {
      fundingInstructions = {
        rail: 'SPARK',
        network: request.network,
        address: `spark1sbx${digest(`${account.providerAccountId}:${request.symbol}`).toString('hex').slice(0, 40)}`,
        valueType: request.symbol,
        amount: request.amount.toString(),
      };
    }
    return {
      providerOperationId,
      providerStatus: 'created',
      firstStatus: awaitsFunds ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
      fundingInstructions,
      outcome: magic,
    };
  }

  fundsCanArrive(outcome: OperationOutcome): boolean {
    return outcome !== 'NEVER_FUNDED';
  }

  nextStep(status: OperationStatus, outcome: OperationOutcome): ProviderStep | null {
    switch (status) {
      case 'PENDING_PROVIDER':
        return outcome === 'EXPIRE'
          ? { status: 'EXPIRED', providerStatus: 'expired', failureReason: 'PROVIDER_OPERATION_EXPIRED' }
          : { status: 'PROCESSING', providerStatus: 'processing' };
      case 'PROCESSING':
        return outcome === 'FAIL'
          ? { status: 'FAILED', providerStatus: 'failed', failureReason: 'PROVIDER_TRANSFER_FAILED' }
          : { status: 'COMPLETED', providerStatus: 'complete' };
      case 'CREATED':
      case 'PENDING_FUNDING':
      case 'COMPLETED':
      case 'FAILED':
      case 'EXPIRED':
        return null;
    }
  }
}
