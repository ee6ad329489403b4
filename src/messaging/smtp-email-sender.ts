import { Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { handOffRefused, maskEmail, messageContent, type OutboundMessage } from './senders.js';
import type { ChannelSender } from './basic-senders.js';

/** How long a hand-off may take before it counts as refused (connect, greeting, each reply). */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * `smtp`: each code as a plain-text email through the operator's relay (`SMTP_URL`, from
 * `EMAIL_FROM`) with nodemailer. The relay accepting the message (250 after DATA) is the hand-off;
 * any refusal or timeout is a 503 and the request keeps nothing. nodemailer's own logger stays off,
 * so neither the relay's credentials nor the code reach a log; our log line masks the address.
 */
export class SmtpEmailSender implements ChannelSender {
  private readonly logger = new Logger('email');
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string, from: string) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      logger: false,
      debug: false,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    this.from = from;
  }

  async send(message: OutboundMessage): Promise<void> {
    const { subject, text } = messageContent(message);
    let messageId: string;
    try {
      ({ messageId } = (await this.transport.sendMail({ from: this.from, to: message.to, subject, text })) as {
        messageId: string;
      });
    } catch (error) {
      const smtp = error as { code?: string; responseCode?: number };
      this.logger.warn(
        { to: maskEmail(message.to), purpose: message.purpose, code: smtp.code, responseCode: smtp.responseCode },
        'SMTP relay refused the message',
      );
      throw handOffRefused('EMAIL');
    }
    this.logger.log(
      { to: maskEmail(message.to), purpose: message.purpose, messageId },
      'code handed to the SMTP relay',
    );
  }

  close(): void {
    this.transport.close();
  }
}
