import { Injectable } from '@nestjs/common';
import { SealedColumns } from '../secrets/sealed-columns.js';

/**
 * The foundation's sealed columns, registered for key rotation (docs/key-rotation.md): the
 * deployment's enclave private key and each OTP's HPKE target private key. (The money and key
 * columns register where they are written: `wallet_seeds`, `wallet_delegated_keys`.)
 */
@Injectable()
export class WalletSealedColumns {
  constructor(sealed: SealedColumns) {
    sealed.register({
      name: 'wallet_enclave_keys.private_key_enc',
      table: 'wallet_enclave_keys',
      keys: ['id'],
      value: 'private_key_enc',
      assign: (param) => `private_key_enc = ${param}`,
    });
    sealed.register({
      name: 'wallet_otps.target_private_key_enc',
      table: 'wallet_otps',
      keys: ['platform_id', 'id'],
      value: 'target_private_key_enc',
      assign: (param) => `target_private_key_enc = ${param}`,
    });
  }
}
