import { Injectable } from '@nestjs/common';
import { formatHpkeBuf, hpkeEncrypt } from '@turnkey/crypto';
import { uint8ArrayFromHexString } from '@turnkey/encoding';
import type { EntityManager } from 'typeorm';
import { english, generateMnemonic } from 'viem/accounts';
import { noteAuditResource, noteAuditStatus } from '../audit/audit-trail.js';
import { Clock } from '../common/clock.js';
import { formatId } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import { WalletAccountsService, type WalletStep } from './wallet-accounts.service.js';
import type { RetryHeaders } from './wallet-signatures.service.js';
import type {} from './wallet-money-events.js';

export interface InternalAccountExport {
  id: string;
  encryptedWalletCredentials: string;
}

/**
 * `POST /internal-accounts/{id}/export` (docs/embedded-wallets.md, "Exporting a wallet"): the
 * wallet's master secret (its BIP-39 mnemonic, generated on first export and sealed at rest),
 * HPKE-encrypted (@turnkey/crypto's `hpkeEncrypt`) to the request's `clientPublicKey` in the
 * export bundle @turnkey/crypto's `decryptExportBundle` reads, signed by the deployment's enclave
 * key. Only after the signed retry (the challenge binds `clientPublicKey`); the plaintext is
 * never logged, stored unsealed, or put in an event or audit record.
 */
@Injectable()
export class WalletExportService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly enclave: EnclaveKeys,
    private readonly outbox: OutboxService,
    private readonly accounts: WalletAccountsService,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'wallet_seeds.mnemonic_enc',
      table: 'wallet_seeds',
      keys: ['platform_id', 'account_id'],
      value: 'mnemonic_enc',
      assign: (param) => `mnemonic_enc = ${param}`,
    });
  }

  export(
    platformId: string,
    accountId: string,
    clientPublicKey: string,
    body: unknown,
    headers: RetryHeaders,
  ): Promise<WalletStep<InternalAccountExport>> {
    return this.tx.run(async (m) => {
      const step = await this.accounts.signedStep(
        m,
        { platformId, accountId, action: 'POST /internal-accounts/{id}/export', body, headers },
        'ACTIVITY_TYPE_EXPORT_WALLET',
        (walletId) => ({ walletId, targetPublicKey: clientPublicKey, language: 'MNEMONIC_LANGUAGE_ENGLISH' }),
      );
      if (step.challenge) return { status: 202, body: step.challenge };
      const { uuid, target, verified } = step;
      const mnemonic = await this.seed(m, platformId, uuid);
      const organizationId = formatId('Platform', platformId);
      const { encappedPublic, ciphertext } = JSON.parse(
        formatHpkeBuf(
          hpkeEncrypt({
            plainTextBuf: new TextEncoder().encode(mnemonic),
            targetKeyBuf: uint8ArrayFromHexString(clientPublicKey),
          }),
        ),
      ) as { encappedPublic: string; ciphertext: string };
      const bundle = await this.enclave.signedBundle({ encappedPublic, ciphertext, organizationId });
      const now = this.clock.now();
      await this.outbox.write(m, {
        platformId,
        type: 'INTERNAL_ACCOUNT.EXPORTED',
        aggregateId: target,
        data: { id: target, requestId: verified.requestId, exportedAt: now.toISOString() },
      });
      noteAuditResource(target);
      noteAuditStatus(200);
      return { status: 200, body: { id: target, encryptedWalletCredentials: bundle } };
    });
  }

  /** The wallet's mnemonic: generated and sealed on the first export (one per wallet, whoever races). */
  private async seed(m: EntityManager, platformId: string, accountId: string): Promise<string> {
    await m.query(
      `INSERT INTO wallet_seeds (account_id, platform_id, mnemonic_enc, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, platform_id) DO NOTHING`,
      [accountId, platformId, this.box.seal(generateMnemonic(english)), this.clock.now()],
    );
    const [row] = await m.query<Array<{ mnemonic_enc: string }>>(
      `SELECT mnemonic_enc FROM wallet_seeds WHERE account_id = $1 AND platform_id = $2`,
      [accountId, platformId],
    );
    return this.box.open(row.mnemonic_enc);
  }
}
