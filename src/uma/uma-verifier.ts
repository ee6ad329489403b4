import { Injectable } from '@nestjs/common';
import { PubKeyResponse, UmaError, type NonceValidator } from '@uma-sdk/core';
import type { X509Certificate } from 'node:crypto';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/api-error.js';
import { CounterpartyHttp } from './counterparty-http.js';
import { UmaKeysService } from './uma-keys.service.js';

/** An error of the UMA library as the API answers it: its code when the catalogue has it, else `fallback`. */
export function fromUmaError(error: unknown, fallback: ErrorCode, context: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UmaError && Object.hasOwn(errorCatalogue(), error.code)) {
    return new ApiError(error.code as ErrorCode, `${context}: ${error.message}`);
  }
  return new ApiError(fallback, `${context}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * The checks around the UMA library's signature verification: a counterparty's published keys
 * (fetched, parsed by the library, certificate chain in date and each certificate signed by the
 * next), message timestamps within UMA_MAX_MESSAGE_AGE_SECONDS, and nonces never seen before
 * (`uma_nonces`, per signing domain, kept for twice the window).
 */
@Injectable()
export class UmaVerifier {
  private readonly maxAgeMs: number;
  private inserts = 0;

  constructor(
    config: AppConfig,
    private readonly http: CounterpartyHttp,
    private readonly keys: UmaKeysService,
    private readonly tx: TransactionService,
    private readonly clock: RealClock,
  ) {
    this.maxAgeMs = config.UMA_MAX_MESSAGE_AGE_SECONDS * 1000;
  }

  /** The counterparty's `/.well-known/lnurlpubkey`, verified (424, INVALID_PUBKEY_FORMAT, CERT_CHAIN_*). */
  async counterpartyKeys(domain: string): Promise<PubKeyResponse> {
    let response;
    try {
      response = await this.http.get(new URL(`${this.keys.baseUrl(domain)}/.well-known/lnurlpubkey`));
    } catch (error) {
      throw new ApiError(
        'COUNTERPARTY_PUBKEY_FETCH_ERROR',
        `Could not fetch the keys of ${domain}: ${(error as Error).message}`,
      );
    }
    if (response.status !== 200) {
      throw new ApiError('COUNTERPARTY_PUBKEY_FETCH_ERROR', `${domain} answered ${response.status} for its keys`);
    }
    let keys: PubKeyResponse;
    try {
      keys = PubKeyResponse.fromJson(response.body);
    } catch (error) {
      throw fromUmaError(error, 'INVALID_PUBKEY_FORMAT', `The keys of ${domain} are malformed`);
    }
    if (keys.signingCertChain) this.checkChain(keys.signingCertChain, domain);
    if (keys.encryptionCertChain) this.checkChain(keys.encryptionCertChain, domain);
    try {
      keys.getSigningPubKey();
    } catch (error) {
      throw fromUmaError(error, 'INVALID_PUBKEY_FORMAT', `The signing key of ${domain} is unusable`);
    }
    return keys;
  }

  /** Every certificate in date; each one issued and signed by the next; a self-issued root signed by itself. */
  checkChain(certs: X509Certificate[], domain: string): void {
    if (certs.length === 0) throw new ApiError('CERT_CHAIN_INVALID', `The certificate chain of ${domain} is empty`);
    const now = this.clock.now().getTime();
    for (const cert of certs) {
      if (new Date(cert.validTo).getTime() < now) {
        throw new ApiError(
          'CERT_CHAIN_EXPIRED',
          `A certificate of ${domain} expired on ${new Date(cert.validTo).toISOString()}`,
        );
      }
      if (new Date(cert.validFrom).getTime() > now) {
        throw new ApiError(
          'CERT_CHAIN_INVALID',
          `A certificate of ${domain} is not valid before ${new Date(cert.validFrom).toISOString()}`,
        );
      }
    }
    for (let i = 0; i < certs.length; i++) {
      const issuer = certs[i + 1] ?? certs[i];
      const last = i === certs.length - 1;
      if (last && !certs[i].checkIssued(certs[i])) continue; // a root issued elsewhere: nothing to check it with
      if (!certs[i].checkIssued(issuer) || !certs[i].verify(issuer.publicKey)) {
        throw new ApiError('CERT_CHAIN_INVALID', `The certificate chain of ${domain} does not verify`);
      }
    }
  }

  /** 400 INVALID_TIMESTAMP when `time` is further than the window from now (either way). */
  checkTimestamp(time: Date | number | undefined, what: string): void {
    const ms = typeof time === 'number' ? time * 1000 : time?.getTime();
    if (ms === undefined || !Number.isFinite(ms) || Math.abs(this.clock.now().getTime() - ms) > this.maxAgeMs) {
      throw new ApiError('INVALID_TIMESTAMP', `The ${what}'s timestamp is outside the accepted window`);
    }
  }

  /** The library's nonce check, kept in `uma_nonces` for messages signed by `domain`. */
  nonces(domain: string): NonceValidator {
    return {
      checkAndSaveNonce: async (nonce: string, timestampSec: number) => {
        const now = this.clock.now();
        if (now.getTime() - timestampSec * 1000 > this.maxAgeMs) return false;
        if ((this.inserts = (this.inserts + 1) % 500) === 0) {
          await this.tx.query(`DELETE FROM uma_nonces WHERE seen_at < $1`, [
            new Date(now.getTime() - 2 * this.maxAgeMs),
          ]);
        }
        const rows = await this.tx.query<unknown[]>(
          `INSERT INTO uma_nonces (domain, nonce, message_time, seen_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (domain, nonce) DO NOTHING RETURNING 1`,
          [domain.toLowerCase(), nonce, new Date(timestampSec * 1000), now],
        );
        return rows.length === 1;
      },
    };
  }
}
