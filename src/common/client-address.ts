import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

/** proxy-addr (Express's own parser of `trust proxy`), loaded only when a list is configured. */
interface ProxyAddr {
  compile(list: string[]): (address: string, hop: number) => boolean;
}
let proxyAddr: ProxyAddr | undefined;
const loadProxyAddr = (): ProxyAddr => (proxyAddr ??= createRequire(import.meta.url)('proxy-addr') as ProxyAddr);

/**
 * The client's address, the one value every use reads (per-address limits, the console sign-in
 * limiter, the audit trail's `sourceAddress`, the access log). Express's `req.ip` when present
 * (it follows the app's `trust proxy` setting, TRUST_PROXY: with it off, the socket's peer, and a
 * forged `X-Forwarded-For` changes nothing), else the socket's peer; an IPv4-mapped IPv6 address
 * is given in its plain IPv4 form (`127.0.0.1`, not `::ffff:127.0.0.1`).
 *
 * No other file in `src/` reads `req.ip`, `req.ips` or a socket's `remoteAddress`
 * (test/unit/foundation/seams.spec.ts fails when one does).
 */
export function clientAddress(req: IncomingMessage & { ip?: string }): string {
  const raw = req.ip ?? req.socket?.remoteAddress ?? '';
  if (!raw) return 'unknown';
  return plainAddress(raw);
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) in its IPv4 form; any other address as it is. */
export function plainAddress(address: string): string {
  return /^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(address) ? address.slice(7) : address;
}

/**
 * Express's `trust proxy` value: `false` (trust no proxy: the client is the socket's peer), a hop
 * count (the service is reachable only through that many proxies), or the addresses / CIDR ranges
 * of the proxies trusted to append to `X-Forwarded-For` (proxy-addr's names `loopback`,
 * `linklocal` and `uniquelocal` allowed). Never `true`: trusting every hop would make the
 * left-most `X-Forwarded-For` value, which the client writes itself, the client's address.
 */
export type TrustProxy = false | number | string[];

export const MAX_TRUSTED_HOPS = 10;

/**
 * Parses TRUST_PROXY (unset, `false`, `0`: off; `1`..`10`: hops; else comma-separated addresses or
 * CIDRs). Throws an Error naming what is wrong. Addresses are checked by compiling them with proxy-addr,
 * the library Express compiles `trust proxy` with, so what passes here is what Express accepts.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    throw new Error(
      '`true` would trust every hop, so a client could name its own address; give the hop count or the proxies',
    );
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_TRUSTED_HOPS) throw new Error(`a hop count is 1 to ${MAX_TRUSTED_HOPS}`);
    return hops;
  }
  const list = text.split(',').map((s) => s.trim());
  if (list.some((s) => s === '')) throw new Error('an empty entry in the list');
  loadProxyAddr().compile(list); // throws naming the bad entry ("invalid IP address: ...")
  return list;
}
