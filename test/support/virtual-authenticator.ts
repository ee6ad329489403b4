import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type CDPSession, type Page } from 'playwright-core';

/**
 * Passkeys for real in e2e tests: Chromium's virtual authenticator (the DevTools protocol's
 * WebAuthn domain, driven through playwright-core) on a small page served on localhost, whose
 * origin the test app allows (SCA_PASSKEY_ORIGINS, SCA_PASSKEY_RP_ID=localhost). Without a
 * browser a passkey file is skipped on a developer's machine and fails in CI (CI=true).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI) throw new Error(`No Chromium at ${CHROMIUM}: the passkey tests need it`);

export interface PasskeyBrowser {
  /** The page's origin (`http://localhost:<port>`). */
  origin: string;
  page: Page;
  /** The DevTools session of the page (`WebAuthn.*` commands on `authenticatorId`). */
  cdp: CDPSession;
  authenticatorId: string;
  /** navigator.credentials.create in the page (the page's own WebAuthn JSON codecs): the credential's JSON. */
  createCredential(options: unknown): Promise<Record<string, unknown>>;
  /** navigator.credentials.get in the page: the assertion's JSON. */
  getAssertion(options: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Chromium on a localhost page titled `title`, with one CTAP2 platform authenticator that verifies its user. */
export async function startPasskeyBrowser(title: string): Promise<PasskeyBrowser> {
  const pageServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><html><head><title>${title}</title></head><body></body></html>`);
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
    headless: true,
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    origin,
    page,
    cdp,
    authenticatorId,
    createCredential: (options) =>
      page.evaluate<Record<string, unknown>>(`(async () => {
        const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(${JSON.stringify(options)});
        return (await navigator.credentials.create({ publicKey })).toJSON();
      })()`),
    getAssertion: (options) =>
      page.evaluate<Record<string, unknown>>(`(async () => {
        const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(${JSON.stringify(options)});
        return (await navigator.credentials.get({ publicKey })).toJSON();
      })()`),
    async close() {
      await browser.close();
      await new Promise((resolve) => pageServer.close(resolve));
    },
  };
}
