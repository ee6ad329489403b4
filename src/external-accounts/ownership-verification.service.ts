import { Injectable } from '@nestjs/common';
import { noteAuditRefusal, noteAuditResource } from '../audit/audit-trail.js';
import { Clock, later } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import type {
  ExternalAccount,
  OwnershipChallenge,
  OwnershipChallengeRequest,
  OwnershipVerifyRequest,
} from './external-account.dto.js';
import type { ExternalAccountEntity } from './external-account.entity.js';
import { ExternalAccountsService, type Owner } from './external-accounts.service.js';
import { isSelfCustodyWallet } from './variants/index.js';
import { signatureVerifiable, verifyWalletSignature } from './wallet-signatures.js';

/** How long a WALLET_SIGNATURE challenge stays valid, on the platform's clock. */
export const OWNERSHIP_CHALLENGE_TTL_MS = 15 * 60 * 1000;

const VERIFIABLE_STATUSES = new Set(['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/**
 * Ownership verification of self-custody wallets (reference `/challenge` and `/verify`, for the
 * platform's accounts and its customers'): the service issues a message, the wallet signs it, and
 * the chain's reference library checks the signature (wallet-signatures.ts). A challenge is kept
 * on the account row (one outstanding; a new one replaces it), expires on the platform's `Clock`
 * and is cleared by the verify that uses it, successful or not, so it verifies at most once.
 */
@Injectable()
export class OwnershipVerificationService {
  constructor(
    private readonly tx: TransactionService,
    private readonly accounts: ExternalAccountsService,
    private readonly clock: Clock,
  ) {}

  challenge(
    platformId: string,
    owner: Owner,
    id: string,
    body: OwnershipChallengeRequest,
  ): Promise<OwnershipChallenge> {
    return this.tx.run(async (m) => {
      const row = await this.accounts.lockOwned(m, platformId, owner, id);
      noteAuditResource(formatId('ExternalAccount', row.id));
      this.requireApplicable(row);
      if (body.method === 'LIVENESS') {
        throw invalidInput([
          fieldError(
            'method',
            'LIVENESS needs a hosted liveness provider, and none is configured: use WALLET_SIGNATURE',
            {
              enum: ['WALLET_SIGNATURE'],
            },
          ),
        ]);
      }
      if (!signatureVerifiable(row.accountType)) {
        throw invalidInput([fieldError('method', `WALLET_SIGNATURE is not available for ${row.accountType} accounts`)]);
      }
      const now = this.clock.now();
      const expiresAt = later(now, OWNERSHIP_CHALLENGE_TTL_MS);
      const messageToSign = [
        'I verify that I control this wallet.',
        `Address: ${String(row.accountInfo.address)}`,
        `Account: ${formatId('ExternalAccount', row.id)}`,
        `Nonce: ${newUuid()}`,
        `Expires: ${expiresAt.toISOString()}`,
      ].join('\n');
      await this.accounts.apply(
        m,
        row,
        {
          status: 'PENDING_OWNERSHIP_VERIFICATION',
          ownershipChallengeMessage: messageToSign,
          ownershipChallengeExpiresAt: expiresAt,
        },
        now,
      );
      return { method: 'WALLET_SIGNATURE', messageToSign, expiresAt: expiresAt.toISOString() };
    });
  }

  /**
   * 200 the account, ACTIVE, when the signature verifies; otherwise the account moves to
   * UNVERIFIED (committed) and the answer is 400 INVALID_INPUT naming `signature`.
   */
  async verify(platformId: string, owner: Owner, id: string, body: OwnershipVerifyRequest): Promise<ExternalAccount> {
    const outcome = await this.tx.run(async (m) => {
      const row = await this.accounts.lockOwned(m, platformId, owner, id);
      noteAuditResource(formatId('ExternalAccount', row.id));
      const message = row.ownershipChallengeMessage;
      const expiresAt = row.ownershipChallengeExpiresAt;
      if (message === null || expiresAt === null || !VERIFIABLE_STATUSES.has(row.status)) {
        throw new ApiError(
          'CONFLICT',
          `No WALLET_SIGNATURE challenge is outstanding for external account ${formatId('ExternalAccount', row.id)}: start one with /challenge`,
        );
      }
      const now = this.clock.now();
      const expired = now.getTime() >= expiresAt.getTime();
      const valid =
        !expired &&
        (await verifyWalletSignature(row.accountType, String(row.accountInfo.address), message, body.signature));
      const account = await this.accounts.apply(
        m,
        row,
        { status: valid ? 'ACTIVE' : 'UNVERIFIED', ownershipChallengeMessage: null, ownershipChallengeExpiresAt: null },
        now,
      );
      // A refused signature commits the UNVERIFIED status; the 400 is the request's audit outcome.
      if (!valid) noteAuditRefusal();
      return { account, valid, expired, expiresAt };
    });
    if (outcome.valid) return outcome.account;
    throw invalidInput([
      fieldError(
        'signature',
        outcome.expired
          ? `the challenge expired at ${outcome.expiresAt.toISOString()}; start a new challenge`
          : 'does not verify for the wallet address over the challenge message; start a new challenge',
      ),
    ]);
  }

  /** 409 CONFLICT unless the account is a FIRST_PARTY self-custody wallet awaiting verification. */
  private requireApplicable(row: ExternalAccountEntity): void {
    const why = !isSelfCustodyWallet(row.accountType, row.accountInfo)
      ? 'it is not a self-custody crypto wallet'
      : row.ownershipType !== 'FIRST_PARTY'
        ? 'it is not FIRST_PARTY'
        : !VERIFIABLE_STATUSES.has(row.status)
          ? `it is ${row.status}`
          : null;
    if (why)
      throw new ApiError(
        'CONFLICT',
        `Ownership verification does not apply to external account ${formatId('ExternalAccount', row.id)}: ${why}`,
      );
  }
}
