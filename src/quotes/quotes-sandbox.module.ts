import { Module } from '@nestjs/common';
import { QuotesSandboxController } from './quotes-sandbox.controller.js';
import { QuotesModule } from './quotes.module.js';

/** `POST /sandbox/send`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [QuotesModule],
  controllers: [QuotesSandboxController],
})
export class QuotesSandboxModule {}
