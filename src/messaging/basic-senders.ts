import { Logger } from '@nestjs/common';
import { notConfigured } from '../errors/not-configured.js';
import { handOffRefused, maskAddress, type MessageChannel, type OutboundMessage } from './senders.js';

/** What every adapter is: EmailSender's and SmsSender's one method. */
export interface ChannelSender {
  send(message: OutboundMessage): Promise<void>;
}

const loggerFor = (channel: MessageChannel) => new Logger(channel === 'SMS' ? 'sms' : 'email');

/**
 * `sandbox`: a log line with the address masked and never the code (the sandbox's magic codes
 * lose nothing). Never bound with SANDBOX=false (docs/production.md).
 */
export class SandboxSender implements ChannelSender {
  private readonly logger: Logger;

  constructor(private readonly channel: MessageChannel) {
    this.logger = loggerFor(channel);
  }

  send(message: OutboundMessage): Promise<void> {
    this.logger.log(
      { to: maskAddress(this.channel, message.to), purpose: message.purpose },
      'code sent (log-only sender)',
    );
    return Promise.resolve();
  }
}

/** `none`: this deployment does not send on the channel; the route answers 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`). */
export class NotConfiguredSender implements ChannelSender {
  constructor(private readonly channel: MessageChannel) {}

  send(): Promise<void> {
    return Promise.reject(
      this.channel === 'SMS'
        ? notConfigured('SMS_TRANSPORT', 'This deployment sends no SMS (SMS_TRANSPORT=none)')
        : notConfigured('EMAIL_TRANSPORT', 'This deployment sends no email (EMAIL_TRANSPORT=none)'),
    );
  }
}

/**
 * `hook`: each message POSTed to `MESSAGE_HOOK_URL` as JSON `{channel, to, purpose, code}`, the
 * operator's bridge to a provider of their own; a 2xx takes it, anything else is a refusal.
 */
export class HookSender implements ChannelSender {
  private readonly logger: Logger;

  constructor(
    private readonly channel: MessageChannel,
    private readonly hookUrl: string,
  ) {
    this.logger = loggerFor(channel);
  }

  async send(message: OutboundMessage): Promise<void> {
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
      this.logger.warn(
        { to: maskAddress(this.channel, message.to), purpose: message.purpose, status },
        'message hook refused the message',
      );
      throw handOffRefused(this.channel);
    }
  }
}
