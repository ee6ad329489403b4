import { Module } from '@nestjs/common';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { PlatformConfigController } from './platform-config.controller.js';
import { PlatformConfigService } from './platform-config.service.js';
import { WebhookKeysService } from './webhook-keys.service.js';

/** The owner of the platform's settings: `platform_configs` and `webhook_signing_keys`. */
@Module({
  imports: [OutboxWriterModule, SecretsModule],
  controllers: [PlatformConfigController],
  providers: [WebhookKeysService, PlatformConfigService],
  exports: [PlatformConfigService],
})
export class PlatformConfigModule {}
