import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { configRows, withConfigTable } from '../../../src/config/config-docs.js';

const DOC = path.resolve(import.meta.dirname, '../../../docs/configuration.md');

/**
 * Variables a choice requires (PAYOUT_RAIL=modern-treasury needs its credentials), set beneath each
 * tried value so that every value is judged on its own.
 */
const COMPANIONS: Record<string, string> = {
  MODERN_TREASURY_API_KEY: 'test-key',
  MODERN_TREASURY_ORGANIZATION_ID: '0c1bd1b4-6e4f-4c4a-9b0e-7d3f1b0e2a11',
  MODERN_TREASURY_WEBHOOK_KEY: 'test-webhook-key',
  MODERN_TREASURY_ORIGINATING_ACCOUNT_ID: '5f0e8c7a-3b1d-4e2f-9a6b-1c2d3e4f5a6b',
};

function rejects(env: Record<string, string>): boolean {
  try {
    loadConfig({ ...COMPANIONS, ...env });
    return false;
  } catch (error) {
    if (error instanceof ConfigError) return true;
    throw error;
  }
}

describe('docs/configuration.md (generated from the config class)', () => {
  it('says what src/config/app-config.ts says', () => {
    const current = fs.readFileSync(DOC, 'utf8');
    if (withConfigTable(current) !== current) {
      throw new Error(
        'docs/configuration.md differs from src/config/app-config.ts: run `npm run docs:config` and commit the result',
      );
    }
    expect(withConfigTable(current)).toBe(current);
  });

  it('documents every variable the service reads, with a meaning', () => {
    const rows = configRows();
    expect(rows.map((r) => r.name).sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(rows.filter((r) => r.description.trim().length < 10)).toEqual([]);
  });

  it('shows the ranges validation enforces: each bound accepted, one step past it refused', () => {
    const ranged = configRows().flatMap((r) => {
      const m = /^(integer|number), (\S+) to (\S+)$/.exec(r.allowed);
      return m ? [{ name: r.name, step: m[1] === 'integer' ? 1 : 0.001, min: m[2], max: m[3] }] : [];
    });
    expect(ranged.length).toBeGreaterThan(10);
    for (const { name, step, min, max } of ranged) {
      const [lo, hi] = [Number(min.replace(/,/g, '')), Number(max.replace(/,/g, ''))];
      expect({ name, lo: rejects({ [name]: String(lo) }), hi: rejects({ [name]: String(hi) }) }).toEqual({
        name,
        lo: false,
        hi: false,
      });
      expect({
        name,
        below: rejects({ [name]: String(lo - step) }),
        above: rejects({ [name]: String(hi + step) }),
      }).toEqual({ name, below: true, above: true });
    }
  });

  it('shows the values a choice accepts', () => {
    for (const row of configRows().filter((r) => /^`[^`]+`(, `[^`]+`)+$/.test(r.allowed))) {
      const values = row.allowed.split(', ').map((v) => v.slice(1, -1));
      expect({ name: row.name, refused: values.filter((v) => rejects({ [row.name]: v })) }).toEqual({
        name: row.name,
        refused: [],
      });
      expect(rejects({ [row.name]: 'not-one-of-them' })).toBe(true);
    }
  });
});
