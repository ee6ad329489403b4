import { ApiError } from '../errors/api-error.js';

/** One message carrying a one-time code to a customer's email address or phone. */
export interface OutboundMessage {
  to: string;
  /** What the code is for, an upper-case tag (LOGIN, EMAIL_VERIFICATION, WALLET_OTP, ...): for the text. */
  purpose: string;
  code: string;
}

export type MessageChannel = 'EMAIL' | 'SMS';

/** Sends one-time codes by email: the one interface every email adapter implements. */
export abstract class EmailSender {
  abstract send(message: OutboundMessage): Promise<void>;
}

/** Sends one-time codes by SMS: the one interface every SMS adapter implements. */
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

export const maskAddress = (channel: MessageChannel, to: string) => (channel === 'SMS' ? maskPhone(to) : maskEmail(to));

/** What each purpose's code is for, in a sentence's words. */
const PURPOSE_TEXT: Record<string, string> = {
  LOGIN: 'sign in',
  EMAIL_VERIFICATION: 'verify your email address',
  PHONE_VERIFICATION: 'verify your phone number',
  WALLET_OTP: 'sign in to your wallet',
  ENROLL_TOTP: 'set up your authenticator app',
  ENROLL_PASSKEY: 'set up your passkey',
  TRUST_BENEFICIARY: 'trust a payee',
  UNTRUST_BENEFICIARY: 'remove a trusted payee',
  AUTHORIZE_PAYMENT: 'authorize a payment',
};

/**
 * The human text of a code's message: an email's subject and body, an SMS's body (the body alone).
 * An unknown purpose still reads well ("Your verification code is ...").
 */
export function messageContent(message: OutboundMessage): { subject: string; text: string } {
  const what = PURPOSE_TEXT[message.purpose];
  const subject = what ? `Your code to ${what}` : 'Your verification code';
  const text = what
    ? `Your code to ${what} is ${message.code}. It expires in a few minutes. If you did not ask for it, ignore this message.`
    : `Your verification code is ${message.code}. It expires in a few minutes. If you did not ask for it, ignore this message.`;
  return { subject, text };
}

/**
 * A refused hand-off: the provider (or the hook) did not take the message. 503, and, since every
 * sender runs last inside the request's transaction, nothing the request wrote is kept: the client
 * retries.
 */
export function handOffRefused(channel: MessageChannel): ApiError {
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `The ${channel === 'SMS' ? 'SMS' : 'email'} could not be sent; retry later`,
  );
}
