import { isValidUmaAddress } from '@uma-sdk/core';
import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config.js';

/**
 * This deployment's UMA domain: `UMA_DOMAIN`, else `localhost:<the port listened on>` (so two
 * deployments started with different PORTs reach each other). Stateless: any module may provide it.
 */
@Injectable()
export class UmaDomain {
  constructor(
    private readonly config: AppConfig,
    private readonly adapter: HttpAdapterHost,
  ) {}

  get(): string {
    if (this.config.UMA_DOMAIN) return this.config.UMA_DOMAIN.toLowerCase();
    const server = this.adapter.httpAdapter?.getHttpServer() as { address(): AddressInfo | string | null } | undefined;
    const address = server?.address();
    const port = address && typeof address === 'object' ? address.port : this.config.PORT;
    return `localhost:${port}`;
  }

  /** `http://` for the hosts the UMA library reaches over plain HTTP (as its isDomainLocalhost), else `https://`. */
  baseUrl(domain = this.get()): string {
    const host = domain.split(':')[0];
    const tld = host.split('.').pop();
    const plain = host === 'localhost' || host === '127.0.0.1' || tld === 'local' || tld === 'internal';
    return `${plain ? 'http' : 'https'}://${domain}`;
  }
}

/**
 * An UMA address as @uma-sdk/core's `isValidUmaAddress` accepts it, with an optional `:port` on
 * the domain (`$bob@localhost:8081`), which the library itself serves and reaches.
 */
export function isUmaAddress(address: string): boolean {
  return isValidUmaAddress(address.replace(/:\d{1,5}$/, ''));
}
