import { Injectable } from '@nestjs/common';
import { noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { renderInternalAccount } from '../customers/internal-accounts.service.js';
import type { InternalAccount } from '../customers/internal-account.dto.js';
import { TransactionService } from '../database/transaction.service.js';
import type { InternalAccountUpdateRequest } from './wallet-accounts.dto.js';
import {
  isRetry,
  WalletSignatures,
  type RetryHeaders,
  type SignedRequestChallenge,
  type WalletAction,
} from './wallet-signatures.service.js';
import { WalletsService } from './wallets.service.js';

/** A two-step answer: the 202 challenge, or the route's final status and body. */
export type WalletStep<T> = { status: 202; body: SignedRequestChallenge } | { status: 200; body: T };

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
      // 404 for an unknown or another platform's account; 409 WALLET_NOT_PROVISIONED for a non-wallet.
      const uuid = await this.wallets.requireWallet(m, platformId, accountId);
      const target = formatId('InternalAccount', uuid);
      const action: WalletAction = {
        platformId,
        accountId: uuid,
        action: 'PATCH /internal-accounts/{id}',
        target,
        body,
      };
      if (!isRetry(headers)) {
        const challenge = await this.signatures.challenge(m, action, {
          payloadToSign: this.signatures.payload(platformId, 'ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY', {
            walletId: target,
            privateEnabled: request.privateEnabled,
          }),
        });
        return { status: 202, body: challenge };
      }
      await this.signatures.consume(m, headers, action);
      const now = this.clock.now();
      await m.query(`UPDATE internal_accounts SET private_enabled = $2, updated_at = $3 WHERE id = $1`, [
        uuid,
        request.privateEnabled,
        now,
      ]);
      const row = await m.findOneByOrFail(InternalAccountEntity, { id: uuid });
      noteAuditResource(target);
      noteAuditStatus(200);
      return { status: 200, body: renderInternalAccount(row) };
    });
  }
}
