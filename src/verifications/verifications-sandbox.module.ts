import { Module } from '@nestjs/common';
import { VerificationsSandboxController } from './verifications-sandbox.controller.js';
import { VerificationsModule } from './verifications.module.js';

/** `/sandbox/verifications/...` and the hosted KYC page: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [VerificationsModule],
  controllers: [VerificationsSandboxController],
})
export class VerificationsSandboxModule {}
