import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';

/** One message carrying a one-time code to a customer's email address or phone. */
export interface OutboundMessage {
  to: string;
  /** What the code is for, an upper-case tag (LOGIN, EMAIL_VERIFICATION, WALLET_OTP, ...): for the text. */
  purpose: string;
  code: string;
}

export type MessageChannel = 'EMAIL' | 'SMS';

/** Sends one-time codes by email: the one interface a real email provider implements. */
export abstract class EmailSender {
  abstract send(message: OutboundMessage): Promise<void>;
}

/** Sends one-time codes by SMS: the one interface a real SMS provider implements. */
export abstract class SmsSender {
  abstract send(message: OutboundMessage): Promise<void>;
}

/** Masks a phone number for a log line: the last two digits only. */
export function maskPhone(phone: string): string {
  return `${'*'.repeat(Math.max(0, phone.length - 2))}${phone.slice(-2)}`;
}

/** Masks an email address for a log line: the first character of the local part and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

const mask = (channel: MessageChannel, to: string) => (channel === 'SMS' ? maskPhone(to) : maskEmail(to));

/**
 * Delivers a message for one channel: to `MESSAGE_HOOK_URL` as JSON `{channel, to, purpose, code}`
 * (the operator's bridge to a real provider) when it is set, otherwise a log line with the address
 * masked and never the code (the sandbox's magic codes lose nothing).
 */
class ChannelSender {
  private readonly logger: Logger;

  constructor(
    private readonly channel: MessageChannel,
    private readonly hookUrl: string | undefined,
  ) {
    this.logger = new Logger(channel === 'SMS' ? 'sms' : 'email');
  }

  async send(message: OutboundMessage): Promise<void> {
    const to = mask(this.channel, message.to);
    if (!this.hookUrl) {
      this.logger.log({ to, purpose: message.purpose }, 'code sent (log-only sender)');
      return;
    }
    let status: number;
    try {
      const response = await fetch(this.hookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: this.channel, ...message }),
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      status = 0;
    }
    if (status < 200 || status >= 300) {
      this.logger.warn({ to, purpose: message.purpose, status }, 'message hook refused the message');
      // Nothing the request wrote survives (senders run inside its transaction): the client retries.
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        `The ${this.channel === 'SMS' ? 'SMS' : 'email'} could not be sent; retry later`,
      );
    }
  }
}

@Injectable()
export class ConfiguredEmailSender extends EmailSender {
  private readonly sender: ChannelSender;

  constructor(config: AppConfig) {
    super();
    this.sender = new ChannelSender('EMAIL', config.MESSAGE_HOOK_URL);
  }

  send(message: OutboundMessage): Promise<void> {
    return this.sender.send(message);
  }
}

@Injectable()
export class ConfiguredSmsSender extends SmsSender {
  private readonly sender: ChannelSender;

  constructor(config: AppConfig) {
    super();
    this.sender = new ChannelSender('SMS', config.MESSAGE_HOOK_URL);
  }

  send(message: OutboundMessage): Promise<void> {
    return this.sender.send(message);
  }
}
