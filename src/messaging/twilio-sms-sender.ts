import { Logger } from '@nestjs/common';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import { handOffRefused, maskPhone, messageContent, type OutboundMessage } from './senders.js';
import type { ChannelSender } from './basic-senders.js';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** A Twilio number (E.164) or alphanumeric sender ID; unused when `messagingServiceSid` is set. */
  from?: string;
  messagingServiceSid?: string;
  /** Another origin for the REST calls (a proxy, a test's stand-in); default `https://api.twilio.com`. */
  apiBaseUrl?: string;
}

const TWILIO_ORIGIN = 'https://api.twilio.com';

/**
 * The SDK's own HTTP client, with every request's origin moved to `apiBaseUrl` (same paths): how
 * the SDK is pointed at a regional proxy or a local stand-in (the SDK takes a custom `httpClient`).
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly base: string) {
    super({ timeout: 10_000 });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const uri = new URL(opts.uri);
    if (uri.origin === TWILIO_ORIGIN) opts = { ...opts, uri: new URL(uri.pathname + uri.search, this.base).href };
    return super.request<TData>(opts);
  }
}

/**
 * `twilio`: each code as an SMS through Twilio's Messages API with the official SDK (from
 * `TWILIO_FROM`, or through `TWILIO_MESSAGING_SERVICE_SID`). Twilio accepting the message (201
 * `queued`/`accepted`) is the hand-off; a 4xx/5xx or a network failure is a 503 and the request
 * keeps nothing. The auth token never reaches a log; our log line masks the number and carries
 * Twilio's error code (e.g. 21211, an invalid number), never the body.
 */
export class TwilioSmsSender implements ChannelSender {
  private readonly logger = new Logger('sms');
  private readonly client: twilio.Twilio;

  constructor(private readonly settings: TwilioSettings) {
    this.client = twilio(settings.accountSid, settings.authToken, {
      autoRetry: false,
      ...(settings.apiBaseUrl ? { httpClient: new RebasedRequestClient(settings.apiBaseUrl) } : { timeout: 10_000 }),
    });
  }

  async send(message: OutboundMessage): Promise<void> {
    const { text } = messageContent(message);
    const sender = this.settings.messagingServiceSid
      ? { messagingServiceSid: this.settings.messagingServiceSid }
      : { from: this.settings.from };
    let sid: string;
    try {
      ({ sid } = await this.client.messages.create({ to: message.to, body: text, ...sender }));
    } catch (error) {
      const rest = error as { status?: number; code?: number };
      this.logger.warn(
        { to: maskPhone(message.to), purpose: message.purpose, status: rest.status, twilioCode: rest.code },
        'Twilio refused the message',
      );
      throw handOffRefused('SMS');
    }
    this.logger.log({ to: maskPhone(message.to), purpose: message.purpose, sid }, 'code handed to Twilio');
  }
}
