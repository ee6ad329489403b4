import { Crypto } from '@peculiar/webcrypto';
import * as x509 from '@peculiar/x509';
import { createPrivateKey, X509Certificate, type webcrypto } from 'node:crypto';

/**
 * Self-signed secp256k1 certificates for a sandbox deployment's UMA keys. UMA signs with
 * secp256k1 (K-256), which Node's WebCrypto lacks: @peculiar/webcrypto provides it and
 * @peculiar/x509 writes the certificate (docs/libraries.md).
 */
const provider = new Crypto();
const subtle = provider.subtle as unknown as webcrypto.SubtleCrypto;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'K-256', hash: 'SHA-256' } as const;

export interface GeneratedKey {
  /** The raw 32-byte private key, hex (what @uma-sdk/core signs with). */
  privateKeyHex: string;
  /** The certificate chain, PEM, leaf first (here: one self-signed certificate). */
  certChainPem: string;
}

export async function generateUmaKey(commonName: string, notBefore: Date, notAfter: Date): Promise<GeneratedKey> {
  const keys = await subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(provider.getRandomValues(new Uint8Array(8))).toString('hex'),
      name: `CN=${commonName.replace(/[,=+<>#;"\\]/g, '_')}`,
      notBefore,
      notAfter,
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    },
    provider,
  );
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  return { privateKeyHex: Buffer.from(jwk.d!, 'base64url').toString('hex'), certChainPem: cert.toString('pem') };
}

/** The certificates of a PEM chain (throws on a malformed one). */
export function parseCertChain(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate in the chain');
  return blocks.map((b) => new X509Certificate(b));
}
