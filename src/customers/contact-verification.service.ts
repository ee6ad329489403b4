import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Clock, later } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { EmailSender, SmsSender } from '../messaging/senders.js';
import { newOneTimeCode, oneTimeCodeDigest, oneTimeCodeMatches } from '../secrets/one-time-code.js';
import { OneTimeCodeKey } from '../secrets/one-time-code-key.js';
import { type CodeLimitSubject, OneTimeCodeLimits } from '../common/one-time-code-limits.js';
import type { CustomerView } from './customer.dto.js';
import { CustomerEntity } from './customer.entity.js';
import type { ContactVerification } from './customer.types.js';
import { CustomersService, renderCustomer } from './customers.service.js';
import { contactKey as key, type ContactChannel } from './contact-verification-rules.js';

/** The sandbox's code (the reference: "in sandbox, no email is sent and the code is always 123456"). */
export const SANDBOX_CONTACT_CODE = '123456';
/** How long a code is good for (the platform's clock). */
export const CONTACT_CODE_TTL_MS = 10 * 60_000;
/** Wrong codes before the code is locked (a new one must be sent). */
export const CONTACT_CODE_MAX_FAILED_ATTEMPTS = 5;
/** A code is re-sent at most once per this interval... */
export const CONTACT_CODE_RESEND_INTERVAL_MS = 30_000;
/** ...and at most this many sends per channel within CONTACT_CODE_SEND_WINDOW_MS of the first. */
export const CONTACT_CODE_MAX_SENDS = 5;
export const CONTACT_CODE_SEND_WINDOW_MS = 60 * 60_000;

interface CodeRow {
  id: string;
  address: string;
  code_digest: string;
  failed_attempts: number;
  sends: number;
  first_sent_at: Date;
  last_sent_at: Date;
  expires_at: Date;
}

/**
 * What the cross-code limits count against (OneTimeCodeLimits): the customer's channel and the
 * customer (every wrong code of every code sent, not per code).
 */
const codeSubjects = (platformId: string, customerId: string, channel: ContactChannel): CodeLimitSubject[] => [
  { platformId, scope: 'contact-code', subject: `${customerId}:${channel}` },
  { platformId, scope: 'contact-code-customer', subject: customerId },
];

/** A wrong code, committed (its attempt counted) before the error is answered. */
class Refusal {
  constructor(readonly error: ApiError) {}
}

/**
 * Contact verification (docs/customers.md#contact-verification): `send` draws a code (123456 in
 * sandbox, where nothing is sent; otherwise through EmailSender / SmsSender), stores its digest
 * (src/secrets/one-time-code.ts) and limits re-sends; `confirm` compares in constant time, counts
 * wrong codes and marks the channel VERIFIED. Both lock the customer row, so one customer's
 * attempts run one at a time.
 */
@Injectable()
export class ContactVerificationService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly customers: CustomersService,
    private readonly email: EmailSender,
    private readonly sms: SmsSender,
    private readonly codeKey: OneTimeCodeKey,
    private readonly limits: OneTimeCodeLimits,
  ) {}

  /** `POST /customers/{id}/verify-email|verify-phone`: 204 once the code is on its way. */
  async send(platformId: string, customerId: string, channel: ContactChannel): Promise<void> {
    await this.tx.run(async (m) => {
      const customer = await this.requireChannel(m, platformId, customerId, channel);
      const address = channel === 'EMAIL' ? customer.email : customer.phoneNumber;
      if (!address) {
        throw new ApiError(
          'MISSING_MANDATORY_USER_INFO',
          `The customer has no ${channel === 'EMAIL' ? 'email address' : 'phone number'} to verify`,
          { details: { missingFields: [{ field: channel === 'EMAIL' ? 'EMAIL' : 'PHONE_NUMBER' }] } },
        );
      }
      const now = this.clock.now();
      const [prior] = await m.query<CodeRow[]>(
        `SELECT id, address, code_digest, failed_attempts, sends, first_sent_at, last_sent_at, expires_at
           FROM contact_verification_codes WHERE platform_id = $3 AND customer_id = $1 AND channel = $2`,
        [customerId, channel, platformId],
      );
      let sends = 1;
      let firstSentAt: Date = now;
      if (prior) {
        const nextAllowed = prior.last_sent_at.getTime() + CONTACT_CODE_RESEND_INTERVAL_MS;
        if (now.getTime() < nextAllowed) throw rateLimited(nextAllowed - now.getTime(), 'A code was just sent');
        const windowEnd = prior.first_sent_at.getTime() + CONTACT_CODE_SEND_WINDOW_MS;
        if (now.getTime() < windowEnd) {
          if (prior.sends >= CONTACT_CODE_MAX_SENDS)
            throw rateLimited(windowEnd - now.getTime(), `At most ${CONTACT_CODE_MAX_SENDS} codes are sent per hour`);
          sends = prior.sends + 1;
          firstSentAt = prior.first_sent_at;
        }
      }
      await this.limits.issue(m, codeSubjects(platformId, customerId, channel));
      const id = newUuid();
      const code = this.config.SANDBOX ? SANDBOX_CONTACT_CODE : newOneTimeCode();
      await m.query(
        `DELETE FROM contact_verification_codes WHERE platform_id = $3 AND customer_id = $1 AND channel = $2`,
        [customerId, channel, platformId],
      );
      await m.query(
        `INSERT INTO contact_verification_codes (id, platform_id, customer_id, channel, address, code_digest,
           failed_attempts, sends, first_sent_at, last_sent_at, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9, $10, $9)`,
        [
          id,
          platformId,
          customerId,
          channel,
          address,
          oneTimeCodeDigest(await this.codeKey.current(), code, id),
          sends,
          firstSentAt,
          now,
          later(now, CONTACT_CODE_TTL_MS),
        ],
      );
      noteAuditResource(formatId('Customer', customerId));
      // Last, inside the transaction: a refused hand-off (503) leaves nothing behind.
      if (!this.config.SANDBOX) {
        const purpose = channel === 'EMAIL' ? 'EMAIL_VERIFICATION' : 'PHONE_VERIFICATION';
        await (channel === 'EMAIL' ? this.email : this.sms).send({ to: address, purpose, code });
      }
    });
  }

  /** `POST /customers/{id}/verify-email/confirm|verify-phone/confirm`: the customer, the channel VERIFIED. */
  async confirm(platformId: string, customerId: string, channel: ContactChannel, code: string): Promise<CustomerView> {
    const outcome = await this.tx.run(async (m): Promise<CustomerView | Refusal> => {
      const customer = await this.requireChannel(m, platformId, customerId, channel);
      const address = channel === 'EMAIL' ? customer.email : customer.phoneNumber;
      const [row] = await m.query<CodeRow[]>(
        `SELECT id, address, code_digest, failed_attempts, sends, first_sent_at, last_sent_at, expires_at
           FROM contact_verification_codes WHERE platform_id = $3 AND customer_id = $1 AND channel = $2`,
        [customerId, channel, platformId],
      );
      const now = this.clock.now();
      const verb = channel === 'EMAIL' ? 'verify-email' : 'verify-phone';
      if (!row || row.address !== address)
        throw invalidCode(`No code was sent to the customer's current address: POST ${verb} first`);
      if (row.failed_attempts >= CONTACT_CODE_MAX_FAILED_ATTEMPTS)
        throw invalidCode(`Too many wrong codes: POST ${verb} for a new one`);
      if (now.getTime() >= row.expires_at.getTime())
        throw invalidCode(`The code has expired: POST ${verb} for a new one`);
      await this.limits.guard(m, codeSubjects(platformId, customerId, channel));
      if (!oneTimeCodeMatches(await this.codeKey.current(), code, row.id, row.code_digest)) {
        await m.query(
          `UPDATE contact_verification_codes SET failed_attempts = failed_attempts + 1 WHERE id = $1 AND platform_id = $2`,
          [row.id, platformId],
        );
        const locked = await this.limits.failure(m, codeSubjects(platformId, customerId, channel));
        if (locked) return new Refusal(locked);
        const left = CONTACT_CODE_MAX_FAILED_ATTEMPTS - row.failed_attempts - 1;
        return new Refusal(
          invalidCode(
            left > 0 ? `The code is wrong (${left} attempts left)` : `The code is wrong: POST ${verb} for a new one`,
          ),
        );
      }
      await m.query(`DELETE FROM contact_verification_codes WHERE id = $1 AND platform_id = $2`, [row.id, platformId]);
      await this.limits.success(m, codeSubjects(platformId, customerId, channel));
      const state: ContactVerification = { ...customer.contactVerification, [key(channel)]: 'VERIFIED' };
      await m.update(CustomerEntity, { id: customer.id, platformId }, { contactVerification: state, updatedAt: now });
      noteAuditResource(formatId('Customer', customerId));
      return renderCustomer({ ...customer, contactVerification: state, updatedAt: now });
    });
    if (outcome instanceof Refusal) throw outcome.error;
    return outcome;
  }

  /**
   * The live customer, locked, whose region requires `channel` and has not verified it yet: 404 /
   * 410 as everywhere, 409 CONFLICT when the channel needs no verification or is already VERIFIED.
   */
  private async requireChannel(
    m: EntityManager,
    platformId: string,
    customerId: string,
    channel: ContactChannel,
  ): Promise<CustomerEntity> {
    const customer = await this.customers.requireActive(m, platformId, customerId, 'update');
    const status = customer.contactVerification?.[key(channel)];
    const what = channel === 'EMAIL' ? 'email' : 'phone';
    if (status === undefined)
      throw new ApiError(
        'CONFLICT',
        `The customer's provider does not require ${what} verification (its region ${customer.region ?? '(none)'} needs none)`,
        { details: { channel } },
      );
    if (status === 'VERIFIED')
      throw new ApiError('CONFLICT', `The customer's ${what} is already VERIFIED`, { details: { channel } });
    return customer;
  }
}

function invalidCode(reason: string): ApiError {
  return invalidInput([fieldError('code', reason)], reason);
}

function rateLimited(waitMs: number, reason: string): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ApiError('RATE_LIMITED', `${reason}: retry in ${seconds} s`, { retryAfterSeconds: seconds });
}
