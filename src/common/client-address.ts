import type { IncomingMessage } from 'node:http';

/**
 * The client's address, the one value every use reads (per-address limits, the console sign-in
 * limiter, the audit trail's `sourceAddress`, the access log). Express's `req.ip` when present
 * (it follows the app's `trust proxy` setting), else the socket's peer; an IPv4-mapped IPv6
 * address is given in its plain IPv4 form (`127.0.0.1`, not `::ffff:127.0.0.1`).
 */
export function clientAddress(req: IncomingMessage & { ip?: string }): string {
  const raw = req.ip ?? req.socket?.remoteAddress ?? '';
  if (!raw) return 'unknown';
  return raw.startsWith('::ffff:') && raw.includes('.') ? raw.slice(7) : raw;
}
