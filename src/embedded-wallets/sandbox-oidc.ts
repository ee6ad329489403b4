import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, decodeJwt, importJWK, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { EnclaveKeys } from './enclave-keys.service.js';

/** The sandbox OIDC issuer's `iss` (SANDBOX=true only; its keys: `GET /sandbox/oauth/jwks`). */
export const SANDBOX_OIDC_ISSUER = 'https://oidc.sandbox.grid.invalid';
const KID = 'sandbox-oidc-1';
/** An OAUTH verify needs a token issued less than this long ago (`iat`). */
export const OIDC_MAX_AGE_SECONDS = 60;

/** The identity an OIDC id token names (what an OAUTH credential registers). */
export interface OidcIdentity {
  iss: string;
  aud: string;
  sub: string;
  email?: string;
  nonce?: string;
}

/** `sha256(clientPublicKey)` in hex: the nonce an OAUTH verify's token must carry (the reference's sandbox rule). */
export const oidcNonce = (clientPublicKey: string) => createHash('sha256').update(clientPublicKey).digest('hex');

/**
 * OIDC id tokens for OAUTH credentials, through jose: the deployment's sandbox issuer (ES256, its
 * key pair kept with the enclave's, sealed) publishes its JWKS and mints tokens for tests and
 * walk-throughs; verification checks the signature against the issuer's JWKS, `iss`, `exp`, and
 * (verify) `iat` freshness on the platform's clock. Other issuers are not configured (400).
 */
@Injectable()
export class SandboxOidc {
  constructor(
    private readonly keys: EnclaveKeys,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The issuer's public JWKS. */
  async jwks(): Promise<{ keys: Array<Record<string, string>> }> {
    const { d: _d, ...pub } = await this.keys.jwk('sandbox-oidc');
    void _d;
    return { keys: [{ ...(pub as Record<string, string>), kid: KID, alg: 'ES256', use: 'sig' }] };
  }

  /** A sandbox id token (issued now on the platform's clock, valid 10 minutes). */
  async mint(claims: { sub: string; aud: string; email?: string; nonce?: string }): Promise<string> {
    const key = await importJWK(await this.keys.jwk('sandbox-oidc'), 'ES256');
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({
      ...(claims.email ? { email: claims.email } : {}),
      ...(claims.nonce ? { nonce: claims.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: KID, typ: 'JWT' })
      .setIssuer(SANDBOX_OIDC_ISSUER)
      .setSubject(claims.sub)
      .setAudience(claims.aud)
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(key);
  }

  /**
   * The token's identity: 400 INVALID_INPUT (`oidcToken`) when it is not a JWT or its issuer is not
   * configured, 401 UNAUTHORIZED when the signature, expiry or (with `fresh`) `iat` check fails.
   */
  async verify(token: string, fresh: boolean): Promise<OidcIdentity> {
    let claims: JWTPayload;
    try {
      claims = decodeJwt(token);
    } catch {
      throw invalidInput([fieldError('oidcToken', 'oidcToken must be a JWT (an OIDC id token)')]);
    }
    if (!this.config.SANDBOX || claims.iss !== SANDBOX_OIDC_ISSUER)
      throw invalidInput([fieldError('oidcToken', `unsupported issuer: ${String(claims.iss).slice(0, 200)}`)]);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, createLocalJWKSet(await this.jwks()), {
        issuer: SANDBOX_OIDC_ISSUER,
        algorithms: ['ES256'],
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'aud', 'iat', 'exp'],
        ...(fresh ? { maxTokenAge: `${OIDC_MAX_AGE_SECONDS}s` } : {}),
      }));
    } catch {
      throw new ApiError('UNAUTHORIZED', 'The OIDC token failed verification (signature, expiry or freshness)');
    }
    const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (!payload.sub || !aud) throw new ApiError('UNAUTHORIZED', 'The OIDC token names no subject or audience');
    return {
      iss: SANDBOX_OIDC_ISSUER,
      aud,
      sub: payload.sub,
      ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
      ...(typeof payload.nonce === 'string' ? { nonce: payload.nonce } : {}),
    };
  }
}
