import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money from an embedded wallet (docs/embedded-wallets.md, "Paying from a wallet"): a quote whose
 * source is an EMBEDDED_WALLET internal account keeps the `payloadToSign` it was issued with (the
 * wallet holder stamps it; `POST /quotes/{id}/execute` verifies the stamp over exactly this text),
 * and a wallet's privacy setting (`privateEnabled`, changed by the signed `PATCH /internal-accounts/{id}`).
 */
export class WalletMoney1767230600000 implements MigrationInterface {
  name = 'WalletMoney1767230600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quotes ADD COLUMN wallet_payload_to_sign text`);
    await q.query(`ALTER TABLE internal_accounts ADD COLUMN private_enabled boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE internal_accounts DROP COLUMN private_enabled`);
    await q.query(`ALTER TABLE quotes DROP COLUMN wallet_payload_to_sign`);
  }
}
