var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PlatformConfigController } from './platform-config.controller.js';
import { PlatformConfigService } from './platform-config.service.js';
import { WEBHOOK_KEY, WebhookKeysService } from './webhook-keys.service.js';
/** The owner of the platform's settings: `platform_configs` and `webhook_signing_keys`. */
let PlatformConfigModule = class PlatformConfigModule {
};
PlatformConfigModule = __decorate([
    Module({
        imports: [OutboxWriterModule],
        controllers: [PlatformConfigController],
        providers: [
            { provide: WEBHOOK_KEY, useFactory: (config) => resolveWebhookKey(config), inject: [AppConfig] },
            WebhookKeysService,
            PlatformConfigService,
        ],
        exports: [PlatformConfigService],
    })
], PlatformConfigModule);
export { PlatformConfigModule };
//# sourceMappingURL=platform-config.module.js.map