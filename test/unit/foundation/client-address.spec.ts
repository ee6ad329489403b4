import type { IncomingMessage } from 'node:http';
import express from 'express';
import { clientAddress, parseTrustProxy } from '../../../src/common/client-address.js';
import { ConfigError, loadConfig } from '../../../src/config/app-config.js';

/** TRUST_PROXY and clientAddress(req): the one reader of the client's address (issue 33). */
describe('TRUST_PROXY', () => {
  it('is off by default; false and 0 are off too', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes a hop count or a list of addresses and CIDRs', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.244.0.0/16, 127.0.0.1,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.244.0.0/16',
      '127.0.0.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each(['true', '11', '10.0.0.0/99', 'ingress-nginx', '10.0.0.1,,10.0.0.2', '999.1.1.1'])(
    'refuses %s at boot, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY=/);
    },
  );

  it('is what Express takes: each parsed value compiles as `trust proxy`', () => {
    for (const value of ['1', '10.244.0.0/16,127.0.0.1', 'uniquelocal'])
      expect(() => express().set('trust proxy', parseTrustProxy(value))).not.toThrow();
  });
});

describe('clientAddress', () => {
  const req = (fields: { ip?: string; remote?: string }) =>
    ({ ip: fields.ip, socket: { remoteAddress: fields.remote } }) as unknown as IncomingMessage & { ip?: string };

  it("reads Express's req.ip, else the socket's peer, in plain form", () => {
    expect(clientAddress(req({ ip: '::ffff:127.0.0.1', remote: '::1' }))).toBe('127.0.0.1');
    expect(clientAddress(req({ remote: '::ffff:10.1.2.3' }))).toBe('10.1.2.3');
    expect(clientAddress(req({ ip: '2001:db8::1' }))).toBe('2001:db8::1');
    expect(clientAddress(req({ ip: '::ffff:abcd' }))).toBe('::ffff:abcd'); // not IPv4-mapped dotted form
    expect(clientAddress(req({}))).toBe('unknown');
  });
});
