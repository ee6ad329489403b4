import { Injectable, Logger } from '@nestjs/common';

/** One SMS to a customer's verified phone. */
export interface SmsMessage {
  to: string;
  /** What the code authorizes (LOGIN, TRUST_BENEFICIARY, ...): for the message text. */
  purpose: string;
  code: string;
}

/**
 * Sends SCA one-time codes by SMS: the one interface a real SMS provider implements (bind it in
 * ScaModule in place of LogSmsSender).
 */
export abstract class SmsSender {
  abstract send(message: SmsMessage): Promise<void>;
}

/** Masks a phone number for a log line: the last two digits only. */
export function maskPhone(phone: string): string {
  return `${'*'.repeat(Math.max(0, phone.length - 2))}${phone.slice(-2)}`;
}

/**
 * The development sender: writes a log line instead of sending, with the number masked and never
 * the code (the sandbox's code is always `123456`, so nothing is lost).
 */
@Injectable()
export class LogSmsSender extends SmsSender {
  private readonly logger = new Logger('sms');

  send(message: SmsMessage): Promise<void> {
    this.logger.log({ to: maskPhone(message.to), purpose: message.purpose }, 'SCA code sent (log-only SMS sender)');
    return Promise.resolve();
  }
}
