import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { verifyStampSignature } from '@turnkey/crypto';
import type { EntityManager } from 'typeorm';
import { noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock, later, type BusinessTime } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { ApiError } from '../errors/api-error.js';
import { activityPayload, bodyDigest, parseStamp, type WalletStamp } from './wallet-stamp.js';

/** The two names of the wallet signature header: the spec's and the reference's (the same header). */
export const SIGNATURE_HEADERS = ['service-wallet-signature', 'grid-wallet-signature'] as const;
/** How long a challenge can be answered: 5 minutes on the platform's clock. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The signed-retry headers of a request (`signature` from either name). */
export interface RetryHeaders {
  signature?: string;
  requestId?: string;
  /** Set when the header is repeated or its two names disagree: the retry is malformed. */
  conflicting?: boolean;
}

/**
 * What a two-step request acts on. `action` names the route (`'DELETE /auth/sessions/{id}'`),
 * `target` the resource it names (`Session:<uuid>`, or the account for a create); a challenge
 * answers only a retry of the same platform, account, action and target.
 */
export interface WalletAction {
  platformId: string;
  /** The EMBEDDED_WALLET internal account (uuid) whose session keys may sign. */
  accountId: string;
  action: string;
  target: string;
  /** The request body as received: the retry must send the same (compared as canonical JSON). */
  body: unknown;
}

/** What the first leg binds into its challenge. */
export interface ChallengeOptions {
  /** What the client stamps (`activityPayload(...)`, or an OTP verification token). */
  payloadToSign: string;
  /**
   * Only this compressed key may sign the retry (the OTP verify's TEK). Default: any live session
   * key of the account.
   */
  signerPublicKey?: string;
  /** Whatever the route needs back on the retry (e.g. the credential set it saw). */
  context?: Record<string, unknown>;
}

/** The reference's SignedRequestChallenge (the 202 body; routes may add `type`). */
export interface SignedRequestChallenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

/** A verified, consumed signed retry. */
export interface VerifiedRetry {
  requestId: string;
  /** The signer's compressed public key. */
  publicKey: string;
  /** The live session (uuid) whose key signed; null when the challenge named its signer. */
  sessionId: string | null;
  context: Record<string, unknown>;
}

interface ChallengeRow {
  id: string;
  account_id: string;
  action: string;
  target: string;
  payload_to_sign: string;
  body_digest: string;
  signer_public_key: string | null;
  context: Record<string, unknown>;
  expires_at: BusinessTime;
  consumed_at: Date | null;
}

const invalid = (reason: string) => new ApiError('WALLET_SIGNATURE_INVALID', reason);

/** Reads the signed-retry headers (`Service-Wallet-Signature` or `Grid-Wallet-Signature`, `Request-Id`). */
export function retryHeaders(headers: IncomingHttpHeaders): RetryHeaders {
  const out: RetryHeaders = {};
  const values = SIGNATURE_HEADERS.map((name) => headers[name]).filter((v) => v !== undefined);
  for (const v of values) {
    if (Array.isArray(v) || (out.signature !== undefined && out.signature !== v)) out.conflicting = true;
    else out.signature = v;
  }
  const requestId = headers['request-id'];
  if (Array.isArray(requestId)) out.conflicting = true;
  else if (requestId !== undefined && requestId !== '') out.requestId = requestId;
  return out;
}

/**
 * The one signed-retry implementation (spec, Authentication item 4; the reference's 202 then
 * signed retry). Any route that must be authorized by the wallet owner's device uses it:
 *
 * ```ts
 * const h = retryHeaders(req.headers);
 * return this.tx.run(async (m) => {
 *   if (!isRetry(h)) return { status: 202, body: await signatures.challenge(m, action, { payloadToSign }) };
 *   const verified = await signatures.consume(m, h, action); // throws the 401s; consumes the challenge
 *   ...the change, in the same transaction (a throw rolls the consumption back too)
 * });
 * ```
 *
 * The retry must carry the signature header (the API-key stamp over the challenge's
 * `payloadToSign`) and `Request-Id` (the challenge's `requestId`), send the body the challenge
 * bound, and be signed by a live session key of the account (or the key the challenge names).
 * A challenge answers one retry; nothing is consumed when a retry is refused.
 */
@Injectable()
export class WalletSignatures {
  constructor(private readonly clock: Clock) {}

  /**
   * A `payloadToSign` in the reference's activity shape, `{"organizationId","parameters",
   * "timestampMs","type"}` (sorted keys), stamped with the platform's clock. Bind into
   * `parameters` everything the retry will do (ids, new values).
   */
  payload(platformId: string, type: string, parameters: Record<string, unknown>): string {
    return activityPayload(formatId('Platform', platformId), type, parameters, this.clock.now());
  }

  /** The first leg: stores a challenge for `action` and answers the 202 body. */
  async challenge(m: EntityManager, action: WalletAction, options: ChallengeOptions): Promise<SignedRequestChallenge> {
    const id = newUuid();
    const now = this.clock.now();
    const expiresAt = later(now, CHALLENGE_TTL_MS);
    await m.query(
      `INSERT INTO wallet_signed_requests (id, platform_id, account_id, action, target, payload_to_sign, body_digest,
         signer_public_key, context, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        id,
        action.platformId,
        action.accountId,
        action.action,
        action.target,
        options.payloadToSign,
        bodyDigest(action.body),
        options.signerPublicKey?.toLowerCase() ?? null,
        JSON.stringify(options.context ?? {}),
        expiresAt,
        now,
      ],
    );
    noteAuditResource(formatId('Request', id));
    noteAuditStatus(202);
    return {
      payloadToSign: options.payloadToSign,
      requestId: formatId('Request', id),
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * The signed retry: checks it and consumes its challenge in `m` (the caller's transaction, so a
   * later refusal rolls the consumption back). Throws 401 `WALLET_SIGNATURE_MISSING`,
   * `REQUEST_ID_MISSING`, `WALLET_SIGNATURE_MALFORMED`, `WALLET_SIGNATURE_BODY_MISMATCH` or
   * `WALLET_SIGNATURE_INVALID` (also for an unknown, foreign, expired or used `Request-Id`).
   */
  async consume(m: EntityManager, headers: RetryHeaders, action: WalletAction): Promise<VerifiedRetry> {
    const stamp = this.stampOf(headers);
    if (headers.requestId === undefined)
      throw new ApiError('REQUEST_ID_MISSING', 'The signed retry must carry the Request-Id of its challenge');
    const uuid = parseId('Request', headers.requestId);
    if (uuid === null) throw invalid('Request-Id names no pending challenge');
    const [row] = await m.query<ChallengeRow[]>(
      `SELECT id, account_id, action, target, payload_to_sign, body_digest, signer_public_key, context, expires_at, consumed_at
         FROM wallet_signed_requests WHERE id = $1 AND platform_id = $2 FOR UPDATE`,
      [uuid, action.platformId],
    );
    if (!row || row.account_id !== action.accountId || row.action !== action.action || row.target !== action.target)
      throw invalid('Request-Id names no pending challenge for this request');
    if (row.consumed_at !== null) throw invalid('This challenge was already used (a signed retry is single use)');
    const now = this.clock.now();
    if (row.expires_at.getTime() <= now.getTime())
      throw invalid(`This challenge expired at ${row.expires_at.toISOString()}: start again`);
    if (bodyDigest(action.body) !== row.body_digest)
      throw new ApiError('WALLET_SIGNATURE_BODY_MISMATCH', 'The retried body is not the body the challenge bound');
    const sessionId = await this.checkSigner(m, action, row.signer_public_key, stamp, now);
    await this.checkSignature(stamp, row.payload_to_sign);
    await m.query(`UPDATE wallet_signed_requests SET consumed_at = $2 WHERE id = $1 AND platform_id = $3`, [
      row.id,
      now,
      action.platformId,
    ]);
    return { requestId: formatId('Request', row.id), publicKey: stamp.publicKey, sessionId, context: row.context };
  }

  /**
   * Redeems a challenge that is answered by something other than a stamp (a passkey assertion over
   * its `payloadToSign`): checks `Request-Id` names an unexpired, unused challenge of this platform,
   * account, action and target, and consumes it in `m`. Throws 401 `REQUEST_ID_MISSING` or
   * `UNAUTHORIZED`. Answers what the challenge bound.
   */
  async redeem(
    m: EntityManager,
    headers: RetryHeaders,
    action: Omit<WalletAction, 'body'>,
  ): Promise<{ payloadToSign: string; signerPublicKey: string | null; context: Record<string, unknown> }> {
    if (headers.requestId === undefined)
      throw new ApiError('REQUEST_ID_MISSING', 'Send the Request-Id of the challenge this answers');
    const uuid = parseId('Request', headers.requestId);
    const [row] =
      uuid === null
        ? []
        : await m.query<ChallengeRow[]>(
            `SELECT id, account_id, action, target, payload_to_sign, signer_public_key, context, expires_at, consumed_at
               FROM wallet_signed_requests WHERE id = $1 AND platform_id = $2 FOR UPDATE`,
            [uuid, action.platformId],
          );
    const now = this.clock.now();
    if (
      !row ||
      row.account_id !== action.accountId ||
      row.action !== action.action ||
      row.target !== action.target ||
      row.consumed_at !== null ||
      row.expires_at.getTime() <= now.getTime()
    )
      throw new ApiError('UNAUTHORIZED', 'Request-Id names no unexpired, unused challenge for this request');
    await m.query(`UPDATE wallet_signed_requests SET consumed_at = $2 WHERE id = $1 AND platform_id = $3`, [
      row.id,
      now,
      action.platformId,
    ]);
    return { payloadToSign: row.payload_to_sign, signerPublicKey: row.signer_public_key, context: row.context };
  }

  /**
   * A stamp over a payload the route knows without a challenge (a quote's wallet `payloadToSign`),
   * made by a live session key of the account. Throws `WALLET_SIGNATURE_MISSING` (no header),
   * `WALLET_SIGNATURE_MALFORMED` or `WALLET_SIGNATURE_INVALID`. Answers the signer.
   */
  async verifyStamp(
    m: EntityManager,
    headers: RetryHeaders,
    platformId: string,
    accountId: string,
    payload: string,
  ): Promise<{ publicKey: string; sessionId: string }> {
    const stamp = this.stampOf(headers);
    const sessionId = await this.checkSigner(
      m,
      { platformId, accountId, action: '', target: '', body: null },
      null,
      stamp,
      this.clock.now(),
    );
    await this.checkSignature(stamp, payload);
    return { publicKey: stamp.publicKey, sessionId: sessionId! };
  }

  private stampOf(headers: RetryHeaders): WalletStamp {
    if (headers.conflicting)
      throw new ApiError(
        'WALLET_SIGNATURE_MALFORMED',
        'The wallet signature header is repeated or its two names disagree',
      );
    if (headers.signature === undefined)
      throw new ApiError(
        'WALLET_SIGNATURE_MISSING',
        'This request needs a wallet signature: the Service-Wallet-Signature (or Grid-Wallet-Signature) header',
      );
    const stamp = parseStamp(headers.signature);
    if (typeof stamp === 'string') throw new ApiError('WALLET_SIGNATURE_MALFORMED', stamp);
    return stamp;
  }

  /** The live session (uuid) whose key made the stamp, or null when the challenge named the signer. */
  private async checkSigner(
    m: EntityManager,
    action: WalletAction,
    required: string | null,
    stamp: WalletStamp,
    now: BusinessTime,
  ): Promise<string | null> {
    if (required !== null) {
      if (stamp.publicKey !== required) throw invalid('The stamp is not made by the key this challenge names');
      return null;
    }
    // Exact: a client key is bound to one live session (WalletsService.openSession), so the key
    // names at most one; any other count is refused rather than picking one.
    const sessions = await m.query<Array<{ id: string; account_id: string; platform_id: string }>>(
      `SELECT id, account_id, platform_id FROM wallet_sessions
        WHERE public_key = $1 AND platform_id = $3 AND revoked_at IS NULL AND expires_at > $2`,
      [stamp.publicKey, now, action.platformId],
    );
    const [session] = sessions;
    if (sessions.length !== 1 || session.account_id !== action.accountId || session.platform_id !== action.platformId)
      throw invalid("The stamp's public key is not a live session key of this account");
    return session.id;
  }

  private async checkSignature(stamp: WalletStamp, payload: string): Promise<void> {
    let ok: boolean;
    try {
      ok = await verifyStampSignature(stamp.publicKey, stamp.signature, payload);
    } catch {
      ok = false;
    }
    if (!ok) throw invalid('The stamp does not verify over payloadToSign');
  }
}

/** Whether a request is a signed retry (either header present) rather than a first leg. */
export function isRetry(headers: RetryHeaders): boolean {
  return headers.signature !== undefined || headers.requestId !== undefined || headers.conflicting === true;
}
