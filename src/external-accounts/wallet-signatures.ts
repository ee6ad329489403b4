import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { isHex, verifyMessage } from 'viem';

/**
 * Wallet ownership proofs (WALLET_SIGNATURE challenges), each checked by its chain's reference
 * library, never by hand: EIP-191 `personal_sign` with viem's `verifyMessage` for the EVM chains,
 * Ed25519 over the message bytes (Solana wallets' `signMessage`) with @noble/curves, the public
 * key being the base58 address and the signature base58 (reference `OwnershipVerifyRequest`).
 * Tron (TIP-191), Spark and Lightning have no verifier here: their accounts verify by another
 * method (the challenge answers 409).
 */
type Verifier = (address: string, message: string, signature: string) => Promise<boolean>;

const evm: Verifier = async (address, message, signature) => {
  if (!isHex(signature, { strict: true })) return false;
  try {
    return await verifyMessage({ address: address as `0x${string}`, message, signature });
  } catch {
    return false;
  }
};

const solana: Verifier = (address, message, signature) => {
  try {
    const publicKey = base58.decode(address);
    const sig = base58.decode(signature);
    if (publicKey.length !== 32 || sig.length !== 64) return Promise.resolve(false);
    return Promise.resolve(ed25519.verify(sig, new TextEncoder().encode(message), publicKey));
  } catch {
    return Promise.resolve(false);
  }
};

const VERIFIERS: Readonly<Record<string, Verifier>> = {
  ETHEREUM_WALLET: evm,
  BASE_WALLET: evm,
  POLYGON_WALLET: evm,
  ARBITRUM_WALLET: evm,
  PLASMA_WALLET: evm,
  SOLANA_WALLET: solana,
};

/** Whether accounts of `accountType` can prove ownership by WALLET_SIGNATURE here. */
export function signatureVerifiable(accountType: string): boolean {
  return accountType in VERIFIERS;
}

/** Whether `signature` is the wallet at `address` signing exactly `message`. */
export function verifyWalletSignature(
  accountType: string,
  address: string,
  message: string,
  signature: string,
): Promise<boolean> {
  const verify = VERIFIERS[accountType];
  return verify ? verify(address, message, signature) : Promise.resolve(false);
}
