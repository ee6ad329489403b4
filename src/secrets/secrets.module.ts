import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { loadKeyRing } from './key-encryption-key.js';
import { KeyRing } from './key-ring.js';
import { SealedColumns } from './sealed-columns.js';
import { SecretBox } from './secret-box.js';
import { OneTimeCodeKey } from './one-time-code-key.js';

/**
 * Secrets at rest: the key-encryption key (loaded when the application is built, so after the
 * entry point has locked the embedded data dir) and `SecretBox`. Imported by the areas that keep
 * secrets: platform config, customers, idempotency.
 */
@Module({
  providers: [
    { provide: KeyRing, useFactory: (config: AppConfig) => loadKeyRing(config), inject: [AppConfig] },
    SecretBox,
    SealedColumns,
    OneTimeCodeKey,
  ],
  exports: [SecretBox, SealedColumns, OneTimeCodeKey],
})
export class SecretsModule {}
