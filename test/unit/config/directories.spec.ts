import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { parseDirectoryData } from '../../../src/config/directories.js';
import { SHIPPED_DIRECTORY } from '../../../src/directories/directory-data.js';

const dir = mkdtempSync(join(tmpdir(), 'directory-config-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The configuration error's problems for DIRECTORY_EXTRA_FILE=`path`. */
function problems(path: string): string[] {
  try {
    loadConfig({ DIRECTORY_EXTRA_FILE: path });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('DIRECTORY_EXTRA_FILE', () => {
  it('unset: no extra entries', () => {
    expect(loadConfig({}).directoryExtra).toEqual({ vasps: [], institutions: [], withdrawalFees: [] });
  });

  it('a valid file is parsed into typed config (every list optional)', () => {
    const path = file('ok.json', JSON.stringify({ vasps: [{ vaspName: 'Example', url: 'https://x.example' }] }));
    expect(loadConfig({ DIRECTORY_EXTRA_FILE: path }).directoryExtra).toEqual({
      vasps: [{ vaspName: 'Example', url: 'https://x.example' }],
      institutions: [],
      withdrawalFees: [],
    });
  });

  it('a missing file, invalid JSON or a bad entry stops the load, naming the problem', () => {
    expect(problems(join(dir, 'absent.json'))).toEqual([
      expect.stringMatching(/^DIRECTORY_EXTRA_FILE=.*cannot be read/),
    ]);
    expect(problems(file('bad.json', '{"vasps": ['))).toEqual([expect.stringContaining('not JSON')]);
    expect(problems(file('list.json', '[]'))).toEqual([expect.stringContaining('(document): must be an object')]);
    expect(
      problems(
        file(
          'fee.json',
          JSON.stringify({
            withdrawalFees: [
              {
                currency: 'USDC',
                cryptoNetwork: 'SOLANA',
                networkFee: -1,
                networkFeeAsset: 'SOL',
                networkFeeInCurrency: 1,
                applicationFee: 0,
              },
            ],
          }),
        ),
      ),
    ).toEqual([expect.stringContaining('withdrawalFees[0].networkFee: must be an integer')]);
    expect(problems(file('unknown.json', JSON.stringify({ banks: [] })))).toEqual([
      expect.stringContaining('(document).banks: is not a known member'),
    ]);
    expect(
      problems(
        file(
          'country.json',
          JSON.stringify({ institutions: [{ bankName: 'B', displayName: 'B', country: 'gh', currency: 'GHS' }] }),
        ),
      ),
    ).toEqual([expect.stringContaining('institutions[0].country: must match')]);
  });

  it('the shipped data passes the same parser', () => {
    expect(parseDirectoryData(SHIPPED_DIRECTORY)).toEqual(SHIPPED_DIRECTORY);
  });
});
