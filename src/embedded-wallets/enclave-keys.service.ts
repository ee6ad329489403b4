import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { p256 } from '@noble/curves/nist.js';
import { generateP256KeyPair } from '@turnkey/crypto';
import { uint8ArrayFromHexString, uint8ArrayToHexString } from '@turnkey/encoding';
import { CompactSign, importJWK, type JWK } from 'jose';
import { RealClock } from '../common/clock.js';
import { TransactionService } from '../database/transaction.service.js';
import { SecretBox } from '../secrets/secret-box.js';

/** The deployment's enclave key pair: `publicKey` uncompressed SEC1 hex (what `enclaveQuorumPublic` carries). */
interface EnclaveKeyPair {
  publicKey: string;
  privateKey: string;
}

/** The key pairs kept in `wallet_enclave_keys`. */
export type StoredKey = 'current' | 'sandbox-oidc';

/** Claims of an OTP verification token, as `verifyOtpVerificationToken` (@turnkey/crypto) requires them. */
export interface VerificationTokenClaims {
  /** The token's own id (uuid). */
  id: string;
  /** `OTP_TYPE_EMAIL` or `OTP_TYPE_SMS`. */
  verification_type: string;
  /** The email or phone number the OTP went to. */
  contact: string;
  /** The platform (`Platform:<uuid>`): the reference's organization. */
  organization_id: string;
  /** The client's compressed P-256 public key (the future session key). */
  public_key: string;
  /** Expiry, milliseconds since the epoch, as a string (the library's format). */
  exp: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/**
 * The deployment's enclave key pair (P-256, generated with @turnkey/crypto on first use, the
 * private key sealed at rest by SecretBox in `wallet_enclave_keys`, one row for the deployment).
 * It signs:
 * - OTP encryption target bundles (`otpEncryptionTargetBundle`): `{version, data, dataSignature,
 *   enclaveQuorumPublic}`, `dataSignature` the DER ECDSA-P256-SHA256 signature of `data`'s bytes,
 *   as `encryptOtpCodeToBundle` verifies it;
 * - OTP verification tokens: ES256 JWTs (jose) that `verifyOtpVerificationToken` accepts.
 * Clients pin its public key (`GET /auth/enclave-key`) and pass it as the library's
 * `dangerouslyOverrideSignerPublicKey` (its default is the hosted service's production key).
 */
@Injectable()
export class EnclaveKeys implements OnApplicationBootstrap {
  private readonly loaded = new Map<StoredKey, Promise<EnclaveKeyPair>>();

  constructor(
    private readonly tx: TransactionService,
    private readonly box: SecretBox,
    private readonly realClock: RealClock,
  ) {}

  /** Loads (or, on the deployment's first start, creates) the pair at boot, outside any request's transaction. */
  async onApplicationBootstrap(): Promise<void> {
    await this.keyPair();
  }

  /** The enclave signing key's public half, uncompressed SEC1 hex (`04...`, 130 hex digits). */
  async publicKey(): Promise<string> {
    return (await this.keyPair()).publicKey;
  }

  /**
   * A signed target bundle for an HPKE target key (uncompressed hex): the client encrypts
   * `{otp_code, public_key}` to `targetPublic` with `encryptOtpCodeToBundle`.
   */
  targetBundle(targetPublicUncompressed: string, organizationId: string): Promise<string> {
    return this.signedBundle({ organizationId, targetPublic: targetPublicUncompressed });
  }

  /**
   * The bundle format @turnkey/crypto reads (`{version, data, dataSignature, enclaveQuorumPublic}`):
   * `data` the hex of the JSON of `content`, signed by the enclave key (a target bundle, an export bundle).
   */
  async signedBundle(content: Record<string, unknown>): Promise<string> {
    const keys = await this.keyPair();
    const data = uint8ArrayToHexString(new TextEncoder().encode(JSON.stringify(content)));
    const signature = p256.sign(uint8ArrayFromHexString(data), uint8ArrayFromHexString(keys.privateKey), {
      format: 'der',
    });
    return JSON.stringify({
      version: 'v1.0.0',
      data,
      dataSignature: uint8ArrayToHexString(signature),
      enclaveQuorumPublic: keys.publicKey,
    });
  }

  /** An OTP verification token (ES256 JWT, header `{alg: ES256, typ: JWT}`) over `claims`. */
  async verificationToken(claims: VerificationTokenClaims): Promise<string> {
    const key = await importJWK(await this.jwk('current'), 'ES256');
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .sign(key);
  }

  private keyPair(): Promise<EnclaveKeyPair> {
    return this.stored('current');
  }

  /**
   * The JWK (private) of a stored pair, for jose: `sandbox-oidc` is the sandbox OIDC issuer's key
   * (src/embedded-wallets/sandbox-oidc.ts), kept like the enclave's.
   */
  async jwk(id: StoredKey): Promise<JWK> {
    const pair = await this.stored(id);
    const point = uint8ArrayFromHexString(pair.publicKey);
    return {
      kty: 'EC',
      crv: 'P-256',
      x: b64url(point.slice(1, 33)),
      y: b64url(point.slice(33, 65)),
      d: b64url(uint8ArrayFromHexString(pair.privateKey)),
    };
  }

  private stored(id: StoredKey): Promise<EnclaveKeyPair> {
    let pending = this.loaded.get(id);
    if (!pending) {
      pending = this.loadOrCreate(id).catch((error: unknown) => {
        this.loaded.delete(id);
        throw error;
      });
      this.loaded.set(id, pending);
    }
    return pending;
  }

  /** The stored pair, or a new one (ON CONFLICT: two replicas starting together keep one). */
  private async loadOrCreate(id: StoredKey): Promise<EnclaveKeyPair> {
    const select = () =>
      this.tx.query<Array<{ public_key: string; private_key_enc: string }>>(
        `SELECT public_key, private_key_enc FROM wallet_enclave_keys WHERE id = $1`,
        [id],
      );
    let [row] = await select();
    if (!row) {
      const pair = generateP256KeyPair();
      await this.tx.query(
        `INSERT INTO wallet_enclave_keys (id, public_key, private_key_enc, created_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
        [id, pair.publicKeyUncompressed, this.box.seal(pair.privateKey), this.realClock.now()],
      );
      [row] = await select();
    }
    if (!row) throw new Error('the enclave key pair could not be stored');
    return { publicKey: row.public_key, privateKey: this.box.open(row.private_key_enc) };
  }
}
