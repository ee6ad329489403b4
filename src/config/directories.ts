import { readFileSync } from 'node:fs';

/**
 * The directories' data and its vocabulary (docs/directories.md): the VASPs (`GET /vasps`), the
 * receiving institutions per country and currency (`GET /discoveries`) and the crypto withdrawal
 * fee schedules (`POST /crypto/estimate-withdrawal-fee`). The deployment ships its own
 * (src/directories/directory-data.ts); DIRECTORY_EXTRA_FILE names an operator's JSON file of the
 * same shape, parsed here once at load (a bad file stops the boot, naming the problem) and merged
 * over the shipped data by the directories area.
 */

/** A Virtual Asset Service Provider (the reference's Vasp). */
export interface VaspEntry {
  vaspName: string;
  url?: string;
}

/** A receiving institution of a corridor (one item of the reference's DiscoveryListResponse). */
export interface InstitutionEntry {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

/** What a withdrawal of `currency` on `cryptoNetwork` costs (the estimate's inputs). */
export interface WithdrawalFeeEntry {
  currency: string;
  cryptoNetwork: string;
  /** The network (gas) fee in minor units of `networkFeeAsset` (informational). */
  networkFee: number;
  networkFeeAsset: string;
  /** The network fee converted to minor units of `currency` (what the withdrawal pays for it). */
  networkFeeInCurrency: number;
  /** The application fee, minor units of `currency`. */
  applicationFee: number;
}

export interface DirectoryData {
  vasps: VaspEntry[];
  institutions: InstitutionEntry[];
  withdrawalFees: WithdrawalFeeEntry[];
}

const MAX_MINOR = Number.MAX_SAFE_INTEGER;
const COUNTRY = /^[A-Z]{2}$/;
const CURRENCY = /^[A-Z]{3,5}$/;
const NETWORK = /^[A-Z][A-Z0-9_]{1,31}$/;

/** A problem of a directory document, `at` naming where (e.g. `vasps[2].url`). */
class DirectoryProblem extends Error {}

function fail(at: string, message: string): never {
  throw new DirectoryProblem(`${at}: ${message}`);
}

function record(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'must be an object');
  return value as Record<string, unknown>;
}

function text(o: Record<string, unknown>, key: string, at: string, pattern?: RegExp, max = 200): string {
  const value = o[key];
  if (typeof value !== 'string' || value.trim() === '' || value.length > max)
    fail(`${at}.${key}`, `must be a non-empty string of at most ${max} characters`);
  if (pattern && !pattern.test(value)) fail(`${at}.${key}`, `must match ${String(pattern)}`);
  return value;
}

function minor(o: Record<string, unknown>, key: string, at: string): number {
  const value = o[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_MINOR)
    fail(`${at}.${key}`, 'must be an integer from 0 to 9007199254740991 (minor units)');
  return value;
}

function only(o: Record<string, unknown>, keys: string[], at: string): void {
  for (const key of Object.keys(o)) if (!keys.includes(key)) fail(`${at}.${key}`, 'is not a known member');
}

function list<T>(doc: Record<string, unknown>, key: string, item: (v: unknown, at: string) => T): T[] {
  const value = doc[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(key, 'must be an array');
  return value.map((v, i) => item(v, `${key}[${i}]`));
}

/** Validates a directory document (the shipped data or an operator's file) into typed data. */
export function parseDirectoryData(value: unknown): DirectoryData {
  const doc = record(value, '(document)');
  only(doc, ['vasps', 'institutions', 'withdrawalFees'], '(document)');
  return {
    vasps: list(doc, 'vasps', (v, at) => {
      const o = record(v, at);
      only(o, ['vaspName', 'url'], at);
      const entry: VaspEntry = { vaspName: text(o, 'vaspName', at) };
      if (o.url !== undefined) {
        const url = text(o, 'url', at, /^https?:\/\/\S+$/, 2048);
        entry.url = url;
      }
      return entry;
    }),
    institutions: list(doc, 'institutions', (v, at) => {
      const o = record(v, at);
      only(o, ['bankName', 'displayName', 'country', 'currency'], at);
      return {
        bankName: text(o, 'bankName', at),
        displayName: text(o, 'displayName', at),
        country: text(o, 'country', at, COUNTRY),
        currency: text(o, 'currency', at, CURRENCY),
      };
    }),
    withdrawalFees: list(doc, 'withdrawalFees', (v, at) => {
      const o = record(v, at);
      only(
        o,
        ['currency', 'cryptoNetwork', 'networkFee', 'networkFeeAsset', 'networkFeeInCurrency', 'applicationFee'],
        at,
      );
      return {
        currency: text(o, 'currency', at, CURRENCY),
        cryptoNetwork: text(o, 'cryptoNetwork', at, NETWORK),
        networkFee: minor(o, 'networkFee', at),
        networkFeeAsset: text(o, 'networkFeeAsset', at, CURRENCY),
        networkFeeInCurrency: minor(o, 'networkFeeInCurrency', at),
        applicationFee: minor(o, 'applicationFee', at),
      };
    }),
  };
}

const parsed = new Map<string, DirectoryData>();

/** DIRECTORY_EXTRA_FILE read and parsed (once per path; a process reads it at load). */
export function readDirectoryFile(path: string): DirectoryData {
  const known = parsed.get(path);
  if (known) return known;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DirectoryProblem(
      error instanceof SyntaxError ? `not JSON (${error.message})` : `cannot be read (${(error as Error).message})`,
    );
  }
  const data = parseDirectoryData(json);
  parsed.set(path, data);
  return data;
}

/** Why DIRECTORY_EXTRA_FILE is unusable, or null. */
export function directoryFileProblem(path: string): string | null {
  try {
    readDirectoryFile(path);
    return null;
  } catch (error) {
    if (error instanceof DirectoryProblem) return error.message;
    throw error;
  }
}
