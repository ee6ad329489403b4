import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message as Twilio's Messages API received it (the form fields Twilio documents). */
export interface TwilioMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
}

/** Twilio's error JSON (`code`, `message`, `more_info`, `status`). */
const twilioError = (res: http.ServerResponse, status: number, code: number, message: string): void => {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * A real HTTP server on 127.0.0.1 speaking Twilio's Programmable Messaging API as published
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `Body` and `From` or
 * `MessagingServiceSid`, HTTP Basic with `AccountSid:AuthToken`; 201 with the Message resource
 * (`sid` SM..., `status` queued or accepted), 401 code 20003 on bad credentials, 400 code 21604 /
 * 21603 without `To` / a sender. Pass `TWILIO_API_BASE_URL: standIn.url`. `refuse(n)` answers the
 * next n messages 400 code 21211 (an invalid `To`), `fail(n)` 503; `next({ to })` awaits a message.
 */
export class TwilioStandIn {
  readonly accountSid = `AC${hex(16)}`;
  readonly authToken = hex(16);
  /** Every request's method and path, in order (the SDK must call only the documented route). */
  readonly requests: string[] = [];
  private readonly unclaimed: TwilioMessage[] = [];
  private waiters: Array<{ to?: string; resolve: (m: TwilioMessage) => void }> = [];
  private refusals = 0;
  private failures = 0;
  private server!: http.Server;
  url = '';

  static async start(): Promise<TwilioStandIn> {
    const standIn = new TwilioStandIn();
    standIn.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => standIn.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    const { port } = standIn.server.address() as AddressInfo;
    standIn.url = `http://127.0.0.1:${port}`;
    return standIn;
  }

  get pending(): readonly TwilioMessage[] {
    return this.unclaimed;
  }

  refuse(count: number): void {
    this.refusals += count;
  }

  fail(count: number): void {
    this.failures += count;
  }

  next(match: { to?: string } = {}): Promise<TwilioMessage> {
    const index = this.unclaimed.findIndex((m) => match.to === undefined || m.to === match.to);
    if (index >= 0) return Promise.resolve(this.unclaimed.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ to: match.to, resolve }));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    this.requests.push(`${req.method} ${req.url}`);
    const route = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !route) return twilioError(res, 404, 20404, 'The requested resource was not found');
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected || route[1] !== this.accountSid)
      return twilioError(res, 401, 20003, 'Authenticate');
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return twilioError(res, 400, 20001, 'Unsupported content type');
    const form = new URLSearchParams(raw);
    const to = form.get('To');
    const body = form.get('Body');
    const from = form.get('From');
    const messagingServiceSid = form.get('MessagingServiceSid');
    if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!from && !messagingServiceSid)
      return twilioError(res, 400, 21603, "A 'From' phone number or a 'MessagingServiceSid' is required.");
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (this.failures > 0) {
      this.failures -= 1;
      return twilioError(res, 503, 20503, 'Service unavailable');
    }
    if (this.refusals > 0) {
      this.refusals -= 1;
      return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    }
    const sid = `SM${hex(16)}`;
    const now = new Date().toUTCString().replace('GMT', '+0000');
    res.writeHead(201, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        account_sid: this.accountSid,
        api_version: '2010-04-01',
        body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: messagingServiceSid ? null : from,
        messaging_service_sid: messagingServiceSid,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        sid,
        status: messagingServiceSid ? 'accepted' : 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}.json`,
      }),
    );
    const message: TwilioMessage = { sid, accountSid: this.accountSid, to, from, messagingServiceSid, body };
    const waiter = this.waiters.find((w) => w.to === undefined || w.to === to);
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(message);
    } else {
      this.unclaimed.push(message);
    }
  }
}
