import {
  createSha256Hash,
  generateNonce,
  getLnurlpResponse,
  getPayReqResponse,
  getPubKeyResponse,
  getSignablePostTransactionCallback,
  PayRequest,
  signPayload,
  type PostTransactionCallback,
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

/** How the fake answers its next pay request (the payreq callback of its lnurlp response). */
export type PayreqMode =
  'none' | 'sender-not-accepted' | 'garbage' | 'wrong-amount' | 'tampered' | 'status-500' | 'switch-error';

/** How its /.well-known/lnurlpubkey answers. */
export type KeyMode = 'valid' | 'expired' | 'broken-chain' | 'missing' | 'malformed';

/**
 * Another UMA participant on 127.0.0.1 for tests (a true external edge), built on @uma-sdk/core:
 * it answers lnurlp requests for any user with a signed response, and can misbehave on purpose.
 */
export class FakeCounterparty {
  misbehave: Misbehaviour = 'none';
  keyMode: KeyMode = 'valid';
  payreqMode: PayreqMode = 'none';
  /** Settlement callbacks it received (as posted), oldest first. */
  readonly settlements: Array<{ kind: string; payload: string; callback: PostTransactionCallback }> = [];
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

  /**
   * A settlement callback signed by this counterparty (as UmaSettlementService signs them), with
   * its message in `message`. `key: 'other'` signs with a key it does not publish; `staleBy`
   * back-dates the timestamp (seconds); `tamper` changes the message after signing.
   */
  async settlementCallback(
    kind: 'PAYMENT' | 'DECISION',
    message: Record<string, unknown>,
    options: { key?: 'own' | 'other'; staleBy?: number; tamper?: (m: Record<string, unknown>) => void } = {},
  ): Promise<{ kind: string; payload: string; callback: PostTransactionCallback }> {
    const payload = JSON.stringify(message);
    const hash = await createSha256Hash(new TextEncoder().encode(payload), true);
    const callback: PostTransactionCallback = {
      utxos: [{ utxo: String(message.reference), amountMsats: 0 }],
      vaspDomain: this.domain,
      signature: '',
      signatureNonce: `${generateNonce()}.${hash}`,
      signatureTimestamp: Math.floor(Date.now() / 1000) - (options.staleBy ?? 0),
    };
    const key = options.key === 'other' ? this.other : this.key;
    callback.signature = await signPayload(
      getSignablePostTransactionCallback(callback),
      Buffer.from(key.privateKeyHex, 'hex'),
    );
    if (options.tamper) {
      const changed = { ...message };
      options.tamper(changed);
      return { kind, payload: JSON.stringify(changed), callback };
    }
    return { kind, payload, callback };
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
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (url.pathname === '/.well-known/uma-settlement') {
        this.settlements.push(JSON.parse(text) as FakeCounterparty['settlements'][number]);
        return json(200, { ok: true });
      }
      if (url.pathname.startsWith('/payreq/'))
        return this.payreq(decodeURIComponent(url.pathname.slice(8)), text, json);
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
      callback: `http://${this.domain}/payreq/${encodeURIComponent(address)}`,
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

  /** The pay-request response (signed with @uma-sdk/core), or the misbehaviour `payreqMode` asks for. */
  private async payreq(receiver: string, text: string, json: (status: number, body: unknown) => void): Promise<void> {
    switch (this.payreqMode) {
      case 'sender-not-accepted':
        return json(400, { code: 'SENDER_NOT_ACCEPTED', reason: 'not this sender' });
      case 'status-500':
        return json(500, { code: 'INTERNAL_ERROR', reason: 'down' });
      case 'switch-error':
        return json(500, { code: 'GRID_SWITCH_ERROR', reason: 'switch down' });
      case 'garbage':
        return json(200, '{"pr": 42, "routes": "no"}');
      case 'none':
      case 'wrong-amount':
      case 'tampered':
        break;
    }
    const request = PayRequest.fromJson(text);
    const amount = this.payreqMode === 'wrong-amount' ? request.amount + 1 : request.amount;
    const changed = new PayRequest(
      amount,
      request.receivingCurrencyCode,
      request.sendingAmountCurrencyCode,
      request.umaMajorVersion,
      request.payerData,
      request.requestedPayeeData,
      request.comment,
      request.invoiceUUID,
      request.settlement,
    );
    const response = await getPayReqResponse({
      request: changed,
      conversionRate: 11956.52,
      receivingCurrencyCode: 'EUR',
      receivingCurrencyDecimals: 2,
      invoiceCreator: { createUmaInvoice: (msats: number) => Promise.resolve(`fake:${msats}`) },
      metadata: JSON.stringify([['text/plain', `Pay to ${receiver}`]]),
      receiverChannelUtxos: [],
      receiverFeesMillisats: 0,
      utxoCallback: `http://${this.domain}/.well-known/uma-settlement`,
      payeeData: { identifier: receiver },
      receivingVaspPrivateKey: Buffer.from(this.key.privateKeyHex, 'hex'),
      payeeIdentifier: receiver,
    });
    const body = JSON.parse(response.toJsonString()) as { payeeData: { compliance: { signature: string } } };
    if (this.payreqMode === 'tampered') {
      const s = body.payeeData.compliance.signature;
      body.payeeData.compliance.signature = s.slice(0, -4) + (s.endsWith('0000') ? '1111' : '0000');
    }
    return json(200, body);
  }
}
