import { Module } from '@nestjs/common';
import { StablecoinsSandboxController } from './stablecoins-sandbox.controller.js';
import { StablecoinsModule } from './stablecoins.module.js';

/** The sandbox provider's triggers: AppModule mounts them only when SANDBOX=true. */
@Module({ imports: [StablecoinsModule], controllers: [StablecoinsSandboxController] })
export class StablecoinsSandboxModule {}
