import { inquiryBackoffMs } from '../../../src/uma/uma-reconciliation.service.js';
import { SETTLEMENT_MAX_BACKOFF_MS, settlementBackoffMs } from '../../../src/uma/uma-settlement.worker.js';

/**
 * Retrying for days (UMA_SETTLEMENT_RETRY_HORIZON_SECONDS) only works with a capped backoff: a
 * counterparty back after a long outage is reached within minutes (docs/uma.md).
 */
it('callbacks back off from 1 s, doubling, to at most 5 minutes, however many attempts', () => {
  expect([1, 2, 3, 4].map(settlementBackoffMs)).toEqual([1000, 2000, 4000, 8000]);
  expect(settlementBackoffMs(9)).toBe(256_000);
  expect(settlementBackoffMs(10)).toBe(SETTLEMENT_MAX_BACKOFF_MS);
  expect(SETTLEMENT_MAX_BACKOFF_MS).toBe(300_000);
  for (const n of [50, 1_000, 1e9]) expect(settlementBackoffMs(n)).toBe(SETTLEMENT_MAX_BACKOFF_MS);
});

it('inquiries repeat from 15 s, doubling, to at most 5 minutes', () => {
  expect([1, 2, 3, 4, 5].map(inquiryBackoffMs)).toEqual([15_000, 30_000, 60_000, 120_000, 240_000]);
  for (const n of [6, 100, 1e9]) expect(inquiryBackoffMs(n)).toBe(300_000);
});
