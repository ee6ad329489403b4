import { expectError } from './test-app.js';

/** Why a proof was refused (docs/sca.md): `details.challenge` of the 400 `INVALID_INPUT`. */
export type ChallengeRefusal = 'WRONG_PROOF' | 'LOCKED' | 'EXPIRED' | 'USED' | 'UNKNOWN';

/** Asserts a refused SCA proof: 400 `INVALID_INPUT` with `details.challenge` saying why. */
export function expectRefusedProof(res: { status: number; body: unknown }, challenge: ChallengeRefusal) {
  const body = expectError(res, 400, 'INVALID_INPUT');
  expect(body.details?.challenge).toBe(challenge);
  return body;
}
