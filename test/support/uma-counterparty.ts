import {
  getLnurlpResponse,
  getPubKeyResponse,
  getSignedLnurlpRequestUrl,
  KycStatus,
  LnurlpResponse,
  parseLnurlpRequest,
  Currency,
} from '@uma-sdk/core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateUmaKey } from '../../src/uma/uma-certificates.js';

/** How the fake counterparty misbehaves on its next lnurlp answer. */
export type Misbehaviour =
  | 'none'
  | 'tampered-signature'
  | 'replay'
  | 'stale-timestamp'
  | 'wrong-receiver'
  | 'not-uma'
  | 'garbage'
  | 'status-412'
  | 'status-500'
  | 'status-400-invalid-nonce';

/** How its /.well-known/lnurlpubkey answers. */
export type KeyMode = 'valid' | 'expired' | 'broken-chain' | 'missing' | 'malformed';

/**
 * Another UMA participant on 127.0.0.1 for tests (a true external edge), built on @uma-sdk/core:
 * it answers lnurlp requests for any user with a signed response, and can misbehave on purpose.
 */
export class FakeCounterparty {
  misbehave: Misbehaviour = 'none';
  keyMode: KeyMode = 'valid';
  private lastResponse: string | null = null;

  private constructor(
    private readonly server: http.Server,
    readonly domain: string,
    readonly key: { privateKeyHex: string; certChainPem: string },
    private readonly expired: { privateKeyHex: string; certChainPem: string },
    private readonly other: { privateKeyHex: string; certChainPem: string },
  ) {}

  static async start(): Promise<FakeCounterparty> {
    const day = 86_400_000;
    const now = Date.now();
    const key = await generateUmaKey('fake', new Date(now - day), new Date(now + 30 * day));
    const expired = await generateUmaKey('fake-expired', new Date(now - 30 * day), new Date(now - day));
    const other = await generateUmaKey('other', new Date(now - day), new Date(now + 30 * day));
    let self: FakeCounterparty | null = null;
    const server = http.createServer((req, res) => {
      void self!.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    self = new FakeCounterparty(server, `localhost:${port}`, key, expired, other);
    return self;
  }

  /** A signed lnurlp request URL from this counterparty (as sender) to `receiver`. */
  signedRequest(receiver: string): Promise<URL> {
    return getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress: receiver,
      senderVaspDomain: this.domain,
      signingPrivateKey: Buffer.from(this.key.privateKeyHex, 'hex'),
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url!, `http://${this.domain}`);
    const json = (status: number, body: unknown): void =>
      void res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(typeof body === 'string' ? body : JSON.stringify(body));
    if (url.pathname === '/.well-known/lnurlpubkey') {
      if (this.keyMode === 'missing') return json(404, { code: 'NOT_FOUND', reason: 'no keys' });
      if (this.keyMode === 'malformed') return json(200, { signingCertChain: ['zz'], encryptionCertChain: ['zz'] });
      const chain =
        this.keyMode === 'expired'
          ? this.expired.certChainPem
          : this.keyMode === 'broken-chain'
            ? this.key.certChainPem + this.other.certChainPem
            : this.key.certChainPem;
      const body = getPubKeyResponse({ signingCertChainPem: chain, encryptionCertChainPem: chain });
      return json(200, body.toJsonString());
    }
    if (!url.pathname.startsWith('/.well-known/lnurlp/'))
      return json(404, { code: 'NOT_FOUND', reason: 'nothing here' });
    switch (this.misbehave) {
      case 'status-412':
        return json(412, { code: 'UNSUPPORTED_UMA_VERSION', reason: 'no' });
      case 'status-500':
        return json(500, { code: 'INTERNAL_ERROR', reason: 'down' });
      case 'status-400-invalid-nonce':
        return json(400, { code: 'INVALID_NONCE', reason: 'seen' });
      case 'garbage':
        return json(200, '{"tag":"payRequest","callback":42}');
      case 'replay':
        if (this.lastResponse) return json(200, this.lastResponse);
        break;
      case 'none':
      case 'tampered-signature':
      case 'stale-timestamp':
      case 'wrong-receiver':
      case 'not-uma':
        break;
    }
    const request = parseLnurlpRequest(url);
    const address = request.receiverAddress;
    const response = await getLnurlpResponse({
      request,
      privateKeyBytes: Buffer.from(this.key.privateKeyHex, 'hex'),
      requiresTravelRuleInfo: false,
      callback: `http://${this.domain}/payreq`,
      encodedMetadata: JSON.stringify([['text/plain', `Pay to ${address}`]]),
      minSendableSats: 1,
      maxSendableSats: 1_000_000,
      payerDataOptions: { identifier: { mandatory: true }, name: { mandatory: true }, compliance: { mandatory: true } },
      currencyOptions: [new Currency('EUR', 'Euro', '€', 11956.52, 10, 500_000, 2)],
      receiverKycStatus: KycStatus.Verified,
    });
    const body = JSON.parse(response.toJsonString()) as Record<string, unknown> & {
      compliance: { signature: string; signatureTimestamp: number; receiverIdentifier: string };
    };
    if (this.misbehave === 'tampered-signature') {
      const s = body.compliance.signature;
      body.compliance.signature = s.slice(0, -4) + (s.endsWith('0000') ? '1111' : '0000');
    }
    if (this.misbehave === 'stale-timestamp') body.compliance.signatureTimestamp -= 3600;
    if (this.misbehave === 'wrong-receiver') body.compliance.receiverIdentifier = '$someone.else@' + this.domain;
    if (this.misbehave === 'not-uma') {
      delete (body as Record<string, unknown>).compliance;
      delete (body as Record<string, unknown>).umaVersion;
    }
    LnurlpResponse.parse(body); // still well-formed for the library
    this.lastResponse = JSON.stringify(body);
    return json(200, this.lastResponse);
  }
}
