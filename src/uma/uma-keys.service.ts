import { Injectable, Logger } from '@nestjs/common';
import { getPubKeyResponse } from '@uma-sdk/core';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { TransactionService } from '../database/transaction.service.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import { generateUmaKey, parseCertChain } from './uma-certificates.js';
import { UmaDomain } from './uma-domain.js';
import { notConfigured } from '../errors/not-configured.js';

/** A generated sandbox certificate is valid this long. */
const SANDBOX_CERT_DAYS = 365;

/** The deployment's UMA identity: its domain, keys and the certificate chains it publishes. */
export interface UmaIdentity {
  domain: string;
  signingKey: Uint8Array;
  signingCertChain: string;
  encryptionKey: Uint8Array;
  encryptionCertChain: string;
}

interface KeysRow {
  signing_private_key_enc: string;
  signing_cert_chain: string;
  encryption_private_key_enc: string;
  encryption_cert_chain: string;
}

/**
 * This deployment's UMA domain and keys (docs/uma.md). With `UMA_SIGNING_PRIVATE_KEY` and its
 * chain configured, those; else, with SANDBOX=true, a key pair and a self-signed certificate for
 * signing and another for encryption, generated on first use and stored per domain in `uma_keys`
 * with the private keys sealed (`SecretBox`, registered for key rotation); else UMA is off.
 */
@Injectable()
export class UmaKeysService {
  private readonly logger = new Logger(UmaKeysService.name);
  private identity: Promise<UmaIdentity> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly umaDomain: UmaDomain,
    private readonly tx: TransactionService,
    private readonly box: SecretBox,
    private readonly clock: RealClock,
    sealed: SealedColumns,
  ) {
    for (const column of ['signing_private_key_enc', 'encryption_private_key_enc']) {
      sealed.register({
        name: `uma_keys.${column}`,
        table: 'uma_keys',
        keys: ['domain'],
        value: column,
        assign: (param) => `${column} = ${param}`,
      });
    }
  }

  domain(): string {
    return this.umaDomain.get();
  }

  baseUrl(domain = this.domain()): string {
    return this.umaDomain.baseUrl(domain);
  }

  get configured(): boolean {
    return Boolean(this.config.UMA_SIGNING_PRIVATE_KEY) || this.config.SANDBOX;
  }

  /** The identity (loaded once per process; a failed load is retried on the next call). */
  load(): Promise<UmaIdentity> {
    if (!this.identity) {
      this.identity = this.resolve().catch((error: unknown) => {
        this.identity = null;
        throw error;
      });
    }
    return this.identity;
  }

  /** The body of `GET /.well-known/lnurlpubkey`, made by the UMA library. */
  async pubKeyResponse(): Promise<Record<string, unknown>> {
    const id = await this.load();
    const response = getPubKeyResponse({
      signingCertChainPem: id.signingCertChain,
      encryptionCertChainPem: id.encryptionCertChain,
      expirationTimestamp: Math.floor(
        Math.min(...parseCertChain(id.signingCertChain).map((c) => new Date(c.validTo).getTime())) / 1000,
      ),
    });
    const json = JSON.parse(response.toJsonString()) as Record<string, unknown>;
    // @uma-sdk/core 1.5.0's toJsonString writes the signing chain as the encryption chain too.
    json.encryptionCertChain = response.encryptionCertChain?.map((c) => c.raw.toString('hex'));
    return json;
  }

  private async resolve(): Promise<UmaIdentity> {
    const domain = this.domain();
    const c = this.config;
    if (c.UMA_SIGNING_PRIVATE_KEY && c.UMA_SIGNING_CERT_CHAIN) {
      parseCertChain(c.UMA_SIGNING_CERT_CHAIN);
      const encryptionKey = c.UMA_ENCRYPTION_PRIVATE_KEY ?? c.UMA_SIGNING_PRIVATE_KEY;
      const encryptionChain = c.UMA_ENCRYPTION_CERT_CHAIN ?? c.UMA_SIGNING_CERT_CHAIN;
      return {
        domain,
        signingKey: Buffer.from(c.UMA_SIGNING_PRIVATE_KEY, 'hex'),
        signingCertChain: c.UMA_SIGNING_CERT_CHAIN,
        encryptionKey: Buffer.from(encryptionKey, 'hex'),
        encryptionCertChain: encryptionChain,
      };
    }
    if (!c.SANDBOX) {
      throw notConfigured(
        'UMA_SIGNING_PRIVATE_KEY',
        'UMA is not configured on this deployment (set UMA_SIGNING_PRIVATE_KEY and UMA_SIGNING_CERT_CHAIN)',
      );
    }
    let row = await this.read(domain);
    if (!row) {
      const now = this.clock.now();
      const until = new Date(now.getTime() + SANDBOX_CERT_DAYS * 86_400_000);
      const signing = await generateUmaKey(domain, now, until);
      const encryption = await generateUmaKey(domain, now, until);
      await this.tx.query(
        `INSERT INTO uma_keys (domain, signing_private_key_enc, signing_cert_chain, encryption_private_key_enc,
                               encryption_cert_chain, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (domain) DO NOTHING`,
        [
          domain,
          this.box.seal(signing.privateKeyHex),
          signing.certChainPem,
          this.box.seal(encryption.privateKeyHex),
          encryption.certChainPem,
          now,
        ],
      );
      row = (await this.read(domain))!;
      this.logger.log({ domain }, 'UMA sandbox keys generated');
    }
    return {
      domain,
      signingKey: Buffer.from(this.box.open(row.signing_private_key_enc), 'hex'),
      signingCertChain: row.signing_cert_chain,
      encryptionKey: Buffer.from(this.box.open(row.encryption_private_key_enc), 'hex'),
      encryptionCertChain: row.encryption_cert_chain,
    };
  }

  private async read(domain: string): Promise<KeysRow | undefined> {
    const rows = await this.tx.query<KeysRow[]>(
      `SELECT signing_private_key_enc, signing_cert_chain, encryption_private_key_enc, encryption_cert_chain
         FROM uma_keys WHERE domain = $1`,
      [domain],
    );
    return rows[0];
  }
}
