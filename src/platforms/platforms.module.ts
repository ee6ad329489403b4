import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { PlatformsService } from './platforms.service.js';

@Module({ imports: [AuthModule, PlatformConfigModule], providers: [PlatformsService], exports: [PlatformsService] })
export class PlatformsModule {}
