import type { LookupAddress } from 'node:dns';
import { assertHostAllowed, isForbiddenAddress, safeLookup } from '../../../src/outbox/delivery/ssrf-guard.js';

function lookup(allowPrivate: boolean, host: string, all = false) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) =>
    safeLookup(allowPrivate)(host, { all }, (err, address) => resolve({ err, address })),
  );
}

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1', // ::ffff:127.0.0.1 as the URL parser writes it
    '64:ff9b::a9fe:a9fe', // 169.254.169.254 via NAT64
    '2002:c0a8:101::1', // 192.168.1.1 via 6to4
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fd00:ec2::254',
    'fc00::1',
    'ff02::1',
    'not-an-ip',
  ])('%s is forbidden', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '::ffff:8.8.8.8', '2606:4700::1111', '2a00:1450::1'])(
    '%s is allowed',
    (ip) => {
      expect(isForbiddenAddress(ip)).toBe(false);
    },
  );
});

describe('assertHostAllowed', () => {
  it('refuses private IP literals unless allowed, and leaves hostnames to safeLookup', () => {
    expect(() => assertHostAllowed('127.0.0.1', false)).toThrow(expect.objectContaining({ code: 'ESSRF_BLOCKED' }));
    expect(() => assertHostAllowed('[::1]', false)).toThrow(expect.objectContaining({ code: 'ESSRF_BLOCKED' }));
    expect(() => assertHostAllowed('127.0.0.1', true)).not.toThrow();
    expect(() => assertHostAllowed('8.8.8.8', false)).not.toThrow();
    expect(() => assertHostAllowed('example.com', false)).not.toThrow();
  });
});

describe('safeLookup', () => {
  it('refuses localhost when private targets are not allowed', async () => {
    const { err } = await lookup(false, 'localhost');
    expect(err?.code).toBe('ESSRF_BLOCKED');
  });

  it('resolves localhost when private targets are allowed (single and all)', async () => {
    const single = await lookup(true, 'localhost');
    expect(single.err).toBeNull();
    expect(isForbiddenAddress(single.address as string)).toBe(true);

    const all = await lookup(true, 'localhost', true);
    expect(all.err).toBeNull();
    expect(Array.isArray(all.address) && all.address.length).toBeGreaterThan(0);
  });

  it('passes through IP literals through the resolver like dns.lookup', async () => {
    expect((await lookup(false, '8.8.8.8')).address).toBe('8.8.8.8');
    expect((await lookup(false, '10.0.0.1')).err?.code).toBe('ESSRF_BLOCKED');
  });
});
