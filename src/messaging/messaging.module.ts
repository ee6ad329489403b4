import { Module } from '@nestjs/common';
import { AppConfig, ConfigError } from '../config/app-config.js';
import { portAdapter } from '../config/ports.js';
import { type ChannelSender, HookSender, NotConfiguredSender, SandboxSender } from './basic-senders.js';
import { EmailSender, SmsSender } from './senders.js';

/**
 * The email adapter EMAIL_TRANSPORT chooses (src/config/ports.ts has the default). A provider's SDK
 * is loaded only when its adapter is chosen: a process that never sends through Twilio never
 * evaluates it.
 */
export async function emailSenderFor(config: AppConfig): Promise<ChannelSender> {
  switch (portAdapter(config, 'EMAIL_TRANSPORT')) {
    case 'smtp':
      requireSettings(config, 'EMAIL_TRANSPORT=smtp', ['SMTP_URL', 'EMAIL_FROM']);
      return new (await import('./smtp-email-sender.js')).SmtpEmailSender(config.SMTP_URL!, config.EMAIL_FROM!);
    case 'hook':
      return new HookSender('EMAIL', requireHook(config));
    case 'sandbox':
      return new SandboxSender('EMAIL');
    case 'none':
      return new NotConfiguredSender('EMAIL');
  }
}

/** The SMS adapter SMS_TRANSPORT chooses. */
export async function smsSenderFor(config: AppConfig): Promise<ChannelSender> {
  switch (portAdapter(config, 'SMS_TRANSPORT')) {
    case 'twilio':
      requireSettings(config, 'SMS_TRANSPORT=twilio', [
        'TWILIO_ACCOUNT_SID',
        'TWILIO_AUTH_TOKEN',
        ...(config.TWILIO_MESSAGING_SERVICE_SID ? [] : (['TWILIO_FROM'] as const)),
      ]);
      return new (await import('./twilio-sms-sender.js')).TwilioSmsSender({
        accountSid: config.TWILIO_ACCOUNT_SID!,
        authToken: config.TWILIO_AUTH_TOKEN!,
        from: config.TWILIO_FROM,
        messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
        apiBaseUrl: config.TWILIO_API_BASE_URL,
      });
    case 'hook':
      return new HookSender('SMS', requireHook(config));
    case 'sandbox':
      return new SandboxSender('SMS');
    case 'none':
      return new NotConfiguredSender('SMS');
  }
}

type Setting =
  'SMTP_URL' | 'EMAIL_FROM' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN' | 'TWILIO_FROM' | 'MESSAGE_HOOK_URL';

/** Boot stops (a configuration error naming each variable) when the chosen adapter lacks a setting. */
function requireSettings(config: AppConfig, chosen: string, names: readonly Setting[]): void {
  const missing = names.filter((name) => !config[name]);
  if (missing.length > 0)
    throw new ConfigError(
      missing.map((name) =>
        name === 'TWILIO_FROM'
          ? `TWILIO_FROM: required with ${chosen} unless TWILIO_MESSAGING_SERVICE_SID is set`
          : `${name}: required with ${chosen}`,
      ),
    );
}

function requireHook(config: AppConfig): string {
  requireSettings(config, 'EMAIL_TRANSPORT/SMS_TRANSPORT=hook', ['MESSAGE_HOOK_URL']);
  return config.MESSAGE_HOOK_URL!;
}

/**
 * Email and SMS one-time codes (docs/production.md#email-and-sms): the two sender interfaces every
 * area that sends a code injects, each bound to the adapter its port variable chooses (smtp / twilio,
 * hook, sandbox, none). Every sender runs last inside the request's transaction, so a refusal (503)
 * or `none` (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`)) leaves nothing written.
 */
@Module({
  providers: [
    { provide: EmailSender, useFactory: emailSenderFor, inject: [AppConfig] },
    { provide: SmsSender, useFactory: smsSenderFor, inject: [AppConfig] },
  ],
  exports: [EmailSender, SmsSender],
})
export class MessagingModule {}
