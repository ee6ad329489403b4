import { Global, Module } from '@nestjs/common';
import { ClockOffsets } from '../common/clock.js';
import { SandboxClockOffsets } from './clock-offsets.js';
import { SandboxClockController } from './sandbox-clock.controller.js';
import { SandboxClockService } from './sandbox-clock.service.js';

/**
 * Sandbox test clocks (`/sandbox/clock`): AppModule mounts it only when SANDBOX=true, and only then
 * is `ClockOffsets` bound (authentication pins each request to its platform's offset). Global so
 * the auth guard and the device-code redemption find the offsets.
 */
@Global()
@Module({
  controllers: [SandboxClockController],
  providers: [SandboxClockOffsets, { provide: ClockOffsets, useExisting: SandboxClockOffsets }, SandboxClockService],
  exports: [ClockOffsets],
})
export class SandboxClockModule {}
