import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { AppConfig } from '../config/app-config.js';
import { assertHostAllowed, safeLookup } from '../outbox/delivery/ssrf-guard.js';

/** What a counterparty answered. */
export interface CounterpartyResponse {
  status: number;
  body: string;
}

/** Thrown when the counterparty could not be reached (or answered too much, too slowly). */
export class CounterpartyUnreachable extends Error {}

const TIMEOUT_MS = 5_000;
const MAX_BODY = 256 * 1024;

/**
 * Requests to another UMA participant: the same private-address rule as webhook deliveries
 * (`WEBHOOK_ALLOW_PRIVATE_TARGETS`, checked after DNS resolution), a 5 s timeout and a 256 KiB cap.
 */
@Injectable()
export class CounterpartyHttp {
  private readonly allowPrivate: boolean;
  private readonly lookup: ReturnType<typeof safeLookup>;

  constructor(config: AppConfig) {
    this.allowPrivate = config.allowPrivateWebhookTargets;
    this.lookup = safeLookup(this.allowPrivate);
  }

  get(url: URL): Promise<CounterpartyResponse> {
    return this.request(url, 'GET');
  }

  /** POSTs a JSON body (pay requests, settlement callbacks), under the same rules as `get`. */
  post(url: URL, body: string): Promise<CounterpartyResponse> {
    return this.request(url, 'POST', body);
  }

  private request(url: URL, method: 'GET' | 'POST', body?: string): Promise<CounterpartyResponse> {
    return new Promise((resolve, reject) => {
      try {
        assertHostAllowed(url.hostname, this.allowPrivate);
      } catch (error) {
        reject(new CounterpartyUnreachable((error as Error).message));
        return;
      }
      const req = (url.protocol === 'https:' ? https : http).request(url, {
        method,
        lookup: this.lookup,
        headers: {
          accept: 'application/json',
          ...(body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
            : {}),
        },
        timeout: TIMEOUT_MS,
      });
      req.on('timeout', () => req.destroy(new CounterpartyUnreachable('timed out')));
      req.on('error', (error) =>
        reject(error instanceof CounterpartyUnreachable ? error : new CounterpartyUnreachable(error.message)),
      );
      req.on('response', (res) => {
        let size = 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY) req.destroy(new CounterpartyUnreachable('response too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => reject(new CounterpartyUnreachable(error.message)));
      });
      req.end(body);
    });
  }
}
