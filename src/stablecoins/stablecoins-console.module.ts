import { Module } from '@nestjs/common';
import { StablecoinsConsoleController } from './stablecoins-console.controller.js';
import { StablecoinsModule } from './stablecoins.module.js';

/** The console's enablement control: AppModule mounts it only with CONSOLE=true and SANDBOX=true. */
@Module({ imports: [StablecoinsModule], controllers: [StablecoinsConsoleController] })
export class StablecoinsConsoleModule {}
