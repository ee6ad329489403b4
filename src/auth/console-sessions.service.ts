import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { addRoute, removeRoutes, routeOf } from '../database/routing-keys.js';
import { TransactionService } from '../database/transaction.service.js';
import type { Permission } from './api-token.entity.js';
import type { PlatformPrincipal } from './auth.decorators.js';

/** The console's session cookie (HttpOnly, SameSite=Strict, Path=/; Secure but on plain-HTTP localhost). */
export const SESSION_COOKIE = 'console_session';
/** The header every cookie-authenticated write must carry, equal to the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The CSRF token of a session: derived from the session id (so the signed-in page can ask for it
 * again after a reload without it being stored anywhere readable), stored as a hash like the id.
 */
const csrfOf = (sessionId: string) => createHash('sha256').update(`csrf:${sessionId}`, 'utf8').digest('base64url');

/** Pinned to the session's platform, found first in routing_keys (api_tokens is a reference table). */
const LOOKUP_SQL = `
  UPDATE console_sessions s SET last_seen_at = $2
    FROM api_tokens t
   WHERE s.id_hash = $1 AND s.platform_id = $5 AND s.revoked_at IS NULL AND s.last_seen_at > $3 AND s.created_at > $4
     AND t.id = s.token_id AND t.platform_id = s.platform_id AND t.revoked_at IS NULL
  RETURNING s.token_id, s.platform_id, s.csrf_hash, t.permissions`;

interface SessionRow {
  token_id: string;
  platform_id: string;
  csrf_hash: Buffer;
  permissions: Permission[];
}

/** A live session, as the auth guard sees it. */
export interface ConsoleSession {
  principal: PlatformPrincipal;
  csrfToken: string;
  csrfHash: Buffer;
}

/**
 * Server-side console sessions. The cookie holds a 256-bit random id; the table holds its SHA-256
 * only, with the API token it was signed in with. A session is live while it is not revoked, was
 * used within CONSOLE_SESSION_IDLE_SECONDS, is younger than CONSOLE_SESSION_MAX_SECONDS and its
 * token is not revoked (joined on every lookup: deleting the token signs its sessions out on the
 * next request, on every replica). Each lookup moves `last_seen_at`. The cookie comes before the
 * platform is known: `routing_keys` (kind `console_session`, written with the session) names it,
 * then the lookup is pinned to it (two statements, each on one node).
 */
@Injectable()
export class ConsoleSessionsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly config: AppConfig,
    private readonly clock: RealClock,
  ) {}

  /** A new session for a verified token: always a new id (no fixation); the token's dead sessions are swept. */
  async create(principal: PlatformPrincipal): Promise<{ sessionId: string; csrfToken: string }> {
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = csrfOf(sessionId);
    const now = this.clock.now();
    const { idleCutoff, maxCutoff } = this.cutoffs(now);
    await this.tx.run(async (m) => {
      const swept = await m.query<Array<{ id_hash: Buffer }>>(
        `DELETE FROM console_sessions
          WHERE token_id = $1 AND platform_id = $4 AND (revoked_at IS NOT NULL OR last_seen_at <= $2 OR created_at <= $3)
          RETURNING id_hash`,
        [principal.tokenId, idleCutoff, maxCutoff, principal.platformId],
      );
      await removeRoutes(
        m,
        'console_session',
        swept.map((r) => r.id_hash),
        principal.platformId,
      );
      const idHash = sha256(sessionId);
      await m.query(
        `INSERT INTO console_sessions (id_hash, token_id, platform_id, csrf_hash, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $5)`,
        [idHash, principal.tokenId, principal.platformId, sha256(csrfToken), now],
      );
      await addRoute(m, 'console_session', idHash, principal.platformId);
    });
    return { sessionId, csrfToken };
  }

  /** The live session with this id (and marks it used), or null. */
  async find(sessionId: string): Promise<ConsoleSession | null> {
    if (sessionId.length === 0 || sessionId.length > 128) return null;
    const now = this.clock.now();
    const { idleCutoff, maxCutoff } = this.cutoffs(now);
    const idHash = sha256(sessionId);
    const platformId = await routeOf(this.tx, 'console_session', idHash);
    if (platformId === null) return null;
    const [rows] = await this.tx.query<[SessionRow[], number]>(LOOKUP_SQL, [
      idHash,
      now,
      idleCutoff,
      maxCutoff,
      platformId,
    ]);
    const row = rows[0];
    if (!row) return null;
    return {
      principal: {
        kind: 'platform',
        platformId: row.platform_id,
        tokenId: row.token_id,
        permissions: [...row.permissions],
      },
      csrfToken: csrfOf(sessionId),
      csrfHash: row.csrf_hash,
    };
  }

  /** Whether `presented` is the session's CSRF token (constant time). */
  csrfMatches(session: ConsoleSession, presented: string | undefined): boolean {
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > 128) return false;
    const candidate = sha256(presented);
    return timingSafeEqual(candidate, session.csrfHash);
  }

  /** Sign-out: the session is revoked (its row kept until the token's next sign-in sweeps it). */
  async revoke(sessionId: string): Promise<void> {
    if (sessionId.length === 0 || sessionId.length > 128) return;
    const idHash = sha256(sessionId);
    const platformId = await routeOf(this.tx, 'console_session', idHash);
    if (platformId === null) return;
    await this.tx.query(
      'UPDATE console_sessions SET revoked_at = $2 WHERE id_hash = $1 AND platform_id = $3 AND revoked_at IS NULL',
      [idHash, this.clock.now(), platformId],
    );
  }

  /** In the token's revoking transaction: its sessions end with it. */
  async revokeForToken(m: EntityManager, platformId: string, tokenId: string, now: Date): Promise<void> {
    await m.query(
      'UPDATE console_sessions SET revoked_at = $2 WHERE token_id = $1 AND platform_id = $3 AND revoked_at IS NULL',
      [tokenId, now, platformId],
    );
  }

  private cutoffs(now: Date): { idleCutoff: Date; maxCutoff: Date } {
    return {
      idleCutoff: new Date(now.getTime() - this.config.CONSOLE_SESSION_IDLE_SECONDS * 1000),
      maxCutoff: new Date(now.getTime() - this.config.CONSOLE_SESSION_MAX_SECONDS * 1000),
    };
  }
}

/** The value of one cookie in a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
