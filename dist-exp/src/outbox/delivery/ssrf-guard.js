import * as dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
/**
 * SSRF protection for webhook delivery: refuse to connect to loopback, private, link-local,
 * metadata and other non-public addresses (unless private targets are explicitly allowed).
 */
/** IPv4 ranges that are never a legitimate public webhook receiver. */
const FORBIDDEN_V4 = [
    ['0.0.0.0', 8], // "this network"
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // CGNAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 cloud metadata
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // TEST-NET-1
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // TEST-NET-2
    ['203.0.113.0', 24], // TEST-NET-3
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
];
const FORBIDDEN_V6 = [
    ['::', 96], // unspecified ::, loopback ::1, deprecated IPv4-compatible
    ['64:ff9b:1::', 48], // local-use NAT64
    ['100::', 64], // discard-only
    ['2001::', 32], // Teredo (embeds an obfuscated IPv4)
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique-local, incl. fd00:ec2::254 (AWS metadata over IPv6)
    ['fe80::', 10], // link-local
    ['fec0::', 10], // deprecated site-local
    ['ff00::', 8], // multicast
];
function v4Hex(ip) {
    const [a, b, c, d] = ip.split('.').map(Number);
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
const blockList = new BlockList();
for (const [network, prefix] of FORBIDDEN_V4) {
    blockList.addSubnet(network, prefix, 'ipv4'); // BlockList also matches IPv4-mapped ::ffff:a.b.c.d
    blockList.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6'); // same range behind NAT64
    blockList.addSubnet(`2002:${v4Hex(network)}::`, 16 + prefix, 'ipv6'); // same range via 6to4
}
for (const [network, prefix] of FORBIDDEN_V6)
    blockList.addSubnet(network, prefix, 'ipv6');
/** True for addresses a webhook must not be sent to. Anything that is not a valid IP is forbidden too. */
export function isForbiddenAddress(ip) {
    const address = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''); // [v6] brackets, zone id
    const family = isIP(address);
    if (family === 0)
        return true;
    return blockList.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
export class SsrfBlockedError extends Error {
    code = 'ESSRF_BLOCKED';
    constructor(host, address) {
        super(`blocked: ${host} resolves to a private address (${address})`);
        this.name = 'SsrfBlockedError';
    }
}
/**
 * Checks a URL host before the request. Needed because Node skips `lookup` for IP literals.
 * Hostnames are checked after resolution by `safeLookup`.
 */
export function assertHostAllowed(host, allowPrivate) {
    const address = host.replace(/^\[(.*)\]$/, '$1');
    if (!allowPrivate && isIP(address) !== 0 && isForbiddenAddress(address)) {
        throw new SsrfBlockedError(host, address);
    }
}
/**
 * A `dns.lookup`-compatible function for the `lookup` option of an http(s) Agent or request.
 * It resolves every address of the host and fails with code `ESSRF_BLOCKED` when any of them is
 * forbidden (so a host mixing public and private records cannot be used to reach the private one).
 */
export function safeLookup(allowPrivate) {
    return (hostname, options, callback) => {
        dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
            if (err)
                return callback(err, '');
            if (addresses.length === 0) {
                return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
            }
            const forbidden = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
            if (forbidden)
                return callback(new SsrfBlockedError(hostname, forbidden.address), '');
            if (options.all)
                return callback(null, addresses);
            callback(null, addresses[0].address, addresses[0].family);
        });
    };
}
//# sourceMappingURL=ssrf-guard.js.map