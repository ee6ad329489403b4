import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigController } from './platform-config.controller.js';
import { PlatformConfigService } from './platform-config.service.js';

@Module({
  imports: [OutboxModule],
  controllers: [PlatformConfigController],
  providers: [PlatformConfigService],
  exports: [PlatformConfigService],
})
export class PlatformConfigModule {}
