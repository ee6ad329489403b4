import { Injectable } from '@nestjs/common';
import { noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { renderInternalAccount } from '../customers/internal-accounts.service.js';
import type { InternalAccount } from '../customers/internal-account.dto.js';
import { TransactionService } from '../database/transaction.service.js';
import type { EntityManager } from 'typeorm';
import type { InternalAccountUpdateRequest } from './wallet-accounts.dto.js';
import {
  isRetry,
  WalletSignatures,
  type RetryHeaders,
  type SignedRequestChallenge,
  type VerifiedRetry,
} from './wallet-signatures.service.js';
import { WalletsService } from './wallets.service.js';

/** A two-step answer: the 202 challenge, or the route's final status and body. */
export type WalletStep<T> = { status: 202; body: SignedRequestChallenge } | { status: 200; body: T };

/** A wallet account route's request, as its signed step sees it. */
export interface AccountRequest {
  platformId: string;
  /** `InternalAccount:<uuid>` as the path names it. */
  accountId: string;
  /** The route template (`'PATCH /internal-accounts/{id}'`): a challenge answers only this route. */
  action: string;
  body: unknown;
  headers: RetryHeaders;
}

/** The account's signed step: the first leg's challenge, or the consumed retry. */
export type AccountStep = { uuid: string; target: string } & (
  { challenge: SignedRequestChallenge } | { challenge?: undefined; verified: VerifiedRetry }
);

/**
 * `PATCH /internal-accounts/{id}` (docs/embedded-wallets.md, "Wallet privacy"): an embedded
 * wallet's `privateEnabled`, changed only by a signed retry from a live session of that wallet.
 */
@Injectable()
export class WalletAccountsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly wallets: WalletsService,
    private readonly signatures: WalletSignatures,
  ) {}

  update(
    platformId: string,
    accountId: string,
    request: InternalAccountUpdateRequest,
    body: unknown,
    headers: RetryHeaders,
  ): Promise<WalletStep<InternalAccount>> {
    return this.tx.run(async (m) => {
      const step = await this.signedStep(
        m,
        { platformId, accountId, action: 'PATCH /internal-accounts/{id}', body, headers },
        'ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY',
        (walletId) => ({ walletId, privateEnabled: request.privateEnabled }),
      );
      if (step.challenge) return { status: 202, body: step.challenge };
      const { uuid, target } = step;
      const now = this.clock.now();
      await m.query(
        `UPDATE internal_accounts SET private_enabled = $2, updated_at = $3 WHERE id = $1 AND platform_id = $4`,
        [uuid, request.privateEnabled, now, platformId],
      );
      const row = await m.findOneByOrFail(InternalAccountEntity, { id: uuid, platformId });
      noteAuditResource(target);
      noteAuditStatus(200);
      return { status: 200, body: renderInternalAccount(row) };
    });
  }

  /**
   * The signed step of a wallet account route, in `m`: the account (404 ACCOUNT_NOT_FOUND for an
   * unknown or another platform's, 409 WALLET_NOT_PROVISIONED for a non-wallet), then either the
   * first leg's challenge over the `type` activity with `parameters(walletId)`, or the retry
   * verified and consumed (the 401s; a later throw in `m` rolls the consumption back).
   */
  async signedStep(
    m: EntityManager,
    request: AccountRequest,
    type: string,
    parameters: (walletId: string) => Record<string, unknown>,
  ): Promise<AccountStep> {
    const { platformId, accountId, action, body, headers } = request;
    const uuid = await this.wallets.requireWallet(m, platformId, accountId);
    const target = formatId('InternalAccount', uuid);
    const bound = { platformId, accountId: uuid, action, target, body };
    if (!isRetry(headers)) {
      const payloadToSign = this.signatures.payload(platformId, type, parameters(target));
      return { uuid, target, challenge: await this.signatures.challenge(m, bound, { payloadToSign }) };
    }
    return { uuid, target, verified: await this.signatures.consume(m, headers, bound) };
  }
}
