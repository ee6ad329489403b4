import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PlatformConfigController } from './platform-config.controller.js';
import { PlatformConfigService } from './platform-config.service.js';
import { WEBHOOK_KEY, WebhookKeysService } from './webhook-keys.service.js';

/** The owner of the platform's settings: `platform_configs` and `webhook_signing_keys`. */
@Module({
  imports: [OutboxWriterModule],
  controllers: [PlatformConfigController],
  providers: [
    { provide: WEBHOOK_KEY, useFactory: (config: AppConfig) => resolveWebhookKey(config), inject: [AppConfig] },
    WebhookKeysService,
    PlatformConfigService,
  ],
  exports: [PlatformConfigService],
})
export class PlatformConfigModule {}
