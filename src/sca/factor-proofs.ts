import { createHash } from 'node:crypto';
import { sameSecret } from '../secrets/constant-time.js';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { generateSecret, generateURI, verify } from 'otplib';

/** A new TOTP shared secret (Base32, 160 bits) and its otpauth:// provisioning URI (otplib). */
export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = generateSecret();
  return { secret, uri: generateURI({ issuer: 'Grid', label, secret }) };
}

/**
 * Checks a TOTP code (RFC 6238, 30-second steps, 6 digits) at `now`, accepting one step of drift
 * either way, and only a step after `afterStep` (a code is used once). Answers the matched step.
 */
export async function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({
      secret,
      token: code,
      epoch: Math.floor(now.getTime() / 1000),
      epochTolerance: 30,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** A WebAuthn challenge that carries what it authorizes: sha256(random nonce || binding). */
export function linkedChallenge(nonce: Buffer, binding: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(nonce).update(binding).digest());
}

export interface StoredPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Registration options for a customer's passkey (@simplewebauthn/server). */
export function registrationOptions(
  rpId: string,
  userId: string,
  userName: string,
  challenge: Uint8Array<ArrayBuffer>,
) {
  return generateRegistrationOptions({
    rpName: 'Grid',
    rpID: rpId,
    userName,
    userID: new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex')),
    challenge,
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Assertion options allowing only the customer's passkey. */
export function assertionOptions(rpId: string, passkey: StoredPasskey, challenge: Uint8Array<ArrayBuffer>) {
  return generateAuthenticationOptions({
    rpID: rpId,
    challenge,
    userVerification: 'preferred',
    allowCredentials: [{ id: passkey.credentialId, transports: passkey.transports }],
  });
}

/** Verifies a registration (attestation) against the expected challenge, origin and relying party. */
export async function verifyRegistration(
  credential: unknown,
  expectedChallenge: string,
  origin: string,
  rpId: string,
): Promise<StoredPasskey | null> {
  try {
    const result = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const c = result.registrationInfo.credential;
    return {
      credentialId: c.id,
      publicKey: Buffer.from(c.publicKey).toString('base64url'),
      counter: c.counter,
      transports: c.transports ?? [],
    };
  } catch {
    return null;
  }
}

/**
 * Verifies an assertion by the customer's passkey against the expected challenge, origin and
 * relying party; answers the authenticator's new counter (the library refuses a counter that did
 * not grow), or null.
 */
export async function verifyAssertion(
  assertion: unknown,
  expectedChallenge: string,
  origin: string,
  rpId: string,
  passkey: StoredPasskey,
): Promise<number | null> {
  const response = assertion as AuthenticationResponseJSON;
  if (typeof response?.id !== 'string' || !sameSecret(response.id, passkey.credentialId)) return null;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: false,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
