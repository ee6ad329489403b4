import { createHash } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { fromDerSignature } from '@turnkey/crypto';
import { isRecord } from '../common/objects.js';

/** The reference's API-key stamp scheme (what `@turnkey/api-key-stamper` writes). */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

/**
 * A parsed wallet signature header: the reference's API-key stamp, base64url of the JSON
 * `{publicKey, scheme, signature}` (`publicKey` compressed P-256 hex, `signature` DER hex of
 * ECDSA-P256-SHA256 over `payloadToSign`).
 */
export interface WalletStamp {
  publicKey: string;
  scheme: typeof STAMP_SCHEME;
  signature: string;
}

/** A compressed SEC1 P-256 public key in hex (66 digits, `02` or `03` first). */
export const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;
/** An uncompressed SEC1 public key in hex (the deprecated legacy flow's key). */
export const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;

/** Whether `hex` is a point on P-256 (a key on another curve, or no point at all, is not). */
export function isP256Point(hex: string): boolean {
  try {
    p256.Point.fromHex(hex.toLowerCase());
    return true;
  } catch {
    return false;
  }
}

/**
 * The stamp in a header value, or a reason it cannot be parsed (WALLET_SIGNATURE_MALFORMED):
 * not base64url, not JSON, a member missing, another scheme, a public key that is not a
 * compressed P-256 point, a signature that is not DER hex.
 */
export function parseStamp(header: string): WalletStamp | string {
  if (header.length === 0 || header.length > 4096 || !/^[A-Za-z0-9_-]+={0,2}$/.test(header))
    return 'the signature header is not base64url';
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return 'the signature header is not base64url-encoded JSON';
  }
  if (!isRecord(value)) return 'the signature header must encode a JSON object';
  const { publicKey, scheme, signature } = value;
  if (typeof publicKey !== 'string' || typeof scheme !== 'string' || typeof signature !== 'string')
    return 'the stamp must carry publicKey, scheme and signature strings';
  if (scheme !== STAMP_SCHEME) return `the stamp's scheme must be ${STAMP_SCHEME}`;
  if (!COMPRESSED_KEY.test(publicKey) || !isP256Point(publicKey))
    return "the stamp's publicKey must be a compressed P-256 public key (hex)";
  if (!/^[0-9a-fA-F]+$/.test(signature) || signature.length > 200) return "the stamp's signature must be DER hex";
  try {
    fromDerSignature(signature);
  } catch {
    return "the stamp's signature is not a DER-encoded ECDSA signature";
  }
  return { publicKey: publicKey.toLowerCase(), scheme: STAMP_SCHEME, signature };
}

/** JSON with every object's keys sorted: one text for one value, whatever order it was sent in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** The digest a challenge keeps of the body it binds (no body and `{}` are the same). */
export function bodyDigest(body: unknown): string {
  const normalized =
    body === undefined || body === null || (isRecord(body) && Object.keys(body).length === 0) ? {} : body;
  return createHash('sha256').update(canonicalJson(normalized)).digest('hex');
}

/**
 * The reference's `payloadToSign` shape for an activity: JSON with sorted keys,
 * `{"organizationId", "parameters", "timestampMs", "type"}` (timestampMs a string).
 */
export function activityPayload(
  organizationId: string,
  type: string,
  parameters: Record<string, unknown>,
  now: Date,
): string {
  return canonicalJson({ organizationId, parameters, timestampMs: String(now.getTime()), type });
}
