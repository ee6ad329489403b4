import { Module } from '@nestjs/common';
import { ConfiguredEmailSender, ConfiguredSmsSender, EmailSender, SmsSender } from './senders.js';

/**
 * Email and SMS one-time codes (docs/configuration.md, `MESSAGE_HOOK_URL`): the two sender
 * interfaces every area that sends a code injects. A real provider replaces a binding here.
 */
@Module({
  providers: [
    { provide: EmailSender, useClass: ConfiguredEmailSender },
    { provide: SmsSender, useClass: ConfiguredSmsSender },
  ],
  exports: [EmailSender, SmsSender],
})
export class MessagingModule {}
