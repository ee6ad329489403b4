import { type AdapterOf, portAdapter, type PortVariable } from './ports.js';

/** FX_RATES' default: the sandbox's rate table (units per 1 USD). */
export const DEFAULT_FX_RATES =
  'EUR=0.92,GBP=0.79,CAD=1.37,MXN=17.2,BRL=5.4,INR=92.5,JPY=150,PHP=58,NGN=1550,USDC=1,BTC=0.000011';

/** The ECB's daily euro foreign exchange reference rates (ECB_RATES_URL's default). */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** What the email, SMS and rate-source defaults read. */
export type MessageRateConfig = {
  SANDBOX: boolean;
  MESSAGE_HOOK_URL?: string;
  FX_RATES?: string;
} & Partial<Record<PortVariable, string>>;

/**
 * The adapters of the email, SMS and exchange-rate ports (docs/production.md). The variable wins
 * when set (`portAdapter`); unset, the defaults differ from the plain mode default:
 * - EMAIL_TRANSPORT / SMS_TRANSPORT: `hook` whenever MESSAGE_HOOK_URL is set (whatever SANDBOX
 *   says: it was the only transport before the ports existed), else `sandbox` with SANDBOX=true and
 *   `none` with SANDBOX=false.
 * - RATE_SOURCE: `sandbox` with SANDBOX=true; with SANDBOX=false `static` when FX_RATES is set to
 *   anything but its default (the operator's own table), else `none`.
 */
export function emailTransport(config: MessageRateConfig): AdapterOf<'EMAIL_TRANSPORT'> {
  if (!config.EMAIL_TRANSPORT && config.MESSAGE_HOOK_URL) return 'hook';
  return portAdapter(config, 'EMAIL_TRANSPORT');
}

/** See `emailTransport`. */
export function smsTransport(config: MessageRateConfig): AdapterOf<'SMS_TRANSPORT'> {
  if (!config.SMS_TRANSPORT && config.MESSAGE_HOOK_URL) return 'hook';
  return portAdapter(config, 'SMS_TRANSPORT');
}

/** See `emailTransport`. */
export function rateSource(config: MessageRateConfig): AdapterOf<'RATE_SOURCE'> {
  if (!config.RATE_SOURCE && !config.SANDBOX && config.FX_RATES && config.FX_RATES !== DEFAULT_FX_RATES)
    return 'static';
  return portAdapter(config, 'RATE_SOURCE');
}
