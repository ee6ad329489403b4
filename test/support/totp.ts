import { generate } from 'otplib';

/** The TOTP code (RFC 6238, otplib) for `secret` now, or `steps` 30-second steps away. */
export function totpCode(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** Milliseconds from now until `iso` (real time). */
export const msUntil = (iso: string): number => Date.parse(iso) - Date.now();
