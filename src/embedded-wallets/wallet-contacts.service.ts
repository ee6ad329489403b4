import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { ContactChangeGates, type ContactChange, type ContactGateOutcome } from '../customers/contact-change.js';
import { ApiError } from '../errors/api-error.js';
import { retryHeaders, isRetry, WalletSignatures, type WalletAction } from './wallet-signatures.service.js';

interface TiedCredential {
  id: string;
  type: 'EMAIL_OTP' | 'SMS_OTP';
  contact: string | null;
}

/** What a contact-change challenge remembers: the wallet's live OTP credential sets when it was issued. */
interface ContactContext {
  emailOtp: string[];
  smsOtp: string[];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * `PATCH /customers/{id}` changing an email or phone tied to the customer's embedded wallet's
 * EMAIL_OTP / SMS_OTP credential (docs/embedded-wallets.md, "Changing a customer's email or
 * phone"): the reference's two steps. The first call answers 202 (the challenge binds the body and
 * the wallet's live OTP credential sets, nothing changes); the signed retry (a live session of the
 * wallet) updates the customer and the tied credentials' contact together, or answers 409
 * EMAIL_OTP_CREDENTIAL_SET_CHANGED / SMS_OTP_CREDENTIAL_SET_CHANGED when the set moved in between.
 * A new contact already tied to another credential of the platform: 409
 * EMAIL_OTP_EMAIL_ALREADY_EXISTS / SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS. No wallet, or nothing tied:
 * the one-step PATCH.
 */
@Injectable()
export class WalletContactsService implements OnModuleInit {
  constructor(
    private readonly gates: ContactChangeGates,
    private readonly signatures: WalletSignatures,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.gates.register((m, change) => this.gate(m, change));
  }

  private async gate(m: EntityManager, change: ContactChange): Promise<ContactGateOutcome> {
    const [wallet] = await m.query<Array<{ id: string }>>(
      `SELECT id FROM internal_accounts WHERE platform_id = $1 AND customer_id = $2 AND type = 'EMBEDDED_WALLET' FOR UPDATE`,
      [change.platformId, change.customerId],
    );
    if (!wallet) return 'proceed';
    const live = await m.query<TiedCredential[]>(
      `SELECT id, type, contact FROM wallet_credentials
        WHERE account_id = $1 AND platform_id = $2 AND deleted_at IS NULL AND type IN ('EMAIL_OTP', 'SMS_OTP')
        ORDER BY id`,
      [wallet.id, change.platformId],
    );
    const emailTied =
      change.email !== undefined &&
      change.before.email !== null &&
      live.filter((c) => c.type === 'EMAIL_OTP' && c.contact === change.before.email!.toLowerCase());
    const phoneTied =
      change.phoneNumber !== undefined &&
      change.before.phoneNumber !== null &&
      live.filter((c) => c.type === 'SMS_OTP' && c.contact === change.before.phoneNumber);
    const tiedEmail = emailTied ? emailTied : [];
    const tiedPhone = phoneTied ? phoneTied : [];
    if (tiedEmail.length === 0 && tiedPhone.length === 0) return 'proceed';

    const newEmail = tiedEmail.length ? (change.email ?? null) : undefined;
    const newPhone = tiedPhone.length ? (change.phoneNumber ?? null) : undefined;
    if (newEmail === null || newPhone === null)
      throw new ApiError(
        'INVALID_INPUT',
        'This contact is tied to an embedded wallet OTP credential: it can be changed, not removed',
      );
    await this.checkFree(m, change.platformId, wallet.id, newEmail?.toLowerCase(), newPhone);

    const target = formatId('Customer', change.customerId);
    const action: WalletAction = {
      platformId: change.platformId,
      accountId: wallet.id,
      action: 'PATCH /customers/{id}',
      target,
      body: change.body,
    };
    const sets: ContactContext = {
      emailOtp: live.filter((c) => c.type === 'EMAIL_OTP').map((c) => c.id),
      smsOtp: live.filter((c) => c.type === 'SMS_OTP').map((c) => c.id),
    };
    const headers = retryHeaders(change.headers);
    if (!isRetry(headers)) {
      const userId = formatId('Customer', change.customerId);
      const payloadToSign =
        newEmail !== undefined
          ? this.signatures.payload(change.platformId, 'ACTIVITY_TYPE_UPDATE_USER_EMAIL', {
              userEmail: newEmail,
              userId,
              ...(newPhone !== undefined ? { userPhoneNumber: newPhone } : {}),
            })
          : this.signatures.payload(change.platformId, 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', {
              userId,
              userPhoneNumber: newPhone,
            });
      const challenge = await this.signatures.challenge(m, action, {
        payloadToSign,
        context: sets as unknown as Record<string, unknown>,
      });
      return { challenge: { ...challenge } };
    }
    const verified = await this.signatures.consume(m, headers, action);
    const bound = verified.context as unknown as ContactContext;
    if (!sameSet(bound.emailOtp ?? [], sets.emailOtp))
      throw new ApiError(
        'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
        "The wallet's EMAIL_OTP credentials changed since the challenge was issued: start again",
      );
    if (!sameSet(bound.smsOtp ?? [], sets.smsOtp))
      throw new ApiError(
        'SMS_OTP_CREDENTIAL_SET_CHANGED',
        "The wallet's SMS_OTP credentials changed since the challenge was issued: start again",
      );
    const now = this.clock.now();
    for (const c of tiedEmail)
      await m.query(
        `UPDATE wallet_credentials SET contact = $2, nickname = $3, updated_at = $4 WHERE id = $1 AND platform_id = $5`,
        [c.id, newEmail!.toLowerCase(), newEmail, now, change.platformId],
      );
    for (const c of tiedPhone)
      await m.query(
        `UPDATE wallet_credentials SET contact = $2, nickname = $2, updated_at = $3 WHERE id = $1 AND platform_id = $4`,
        [c.id, newPhone, now, change.platformId],
      );
    for (const c of [...tiedEmail, ...tiedPhone]) noteAuditResource(formatId('AuthMethod', c.id));
    return 'proceed';
  }

  /** 409 when the new contact is tied to another live OTP credential of the platform. */
  private async checkFree(
    m: EntityManager,
    platformId: string,
    walletId: string,
    email: string | undefined,
    phone: string | undefined,
  ): Promise<void> {
    for (const [type, contact] of [
      ['EMAIL_OTP', email],
      ['SMS_OTP', phone],
    ] as const) {
      if (contact === undefined) continue;
      const [taken] = await m.query<Array<{ id: string }>>(
        `SELECT id FROM wallet_credentials
          WHERE platform_id = $1 AND type = $2 AND contact = $3 AND deleted_at IS NULL AND account_id <> $4`,
        [platformId, type, contact, walletId],
      );
      if (taken)
        throw type === 'EMAIL_OTP'
          ? new ApiError('EMAIL_OTP_EMAIL_ALREADY_EXISTS', 'The new email is already tied to another wallet credential')
          : new ApiError(
              'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
              'The new phone number is already tied to another wallet credential',
            );
    }
  }
}
