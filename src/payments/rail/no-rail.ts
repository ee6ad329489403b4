import { RailAdapter, type RailNews, RailUnavailable, RailWebhookRejected } from './rail.js';

/**
 * PAYOUT_RAIL=none: no payout rail. Executes, transfers out and agent executes to an external
 * account answer 503 SERVICE_UNAVAILABLE (details.notConfigured: PAYOUT_RAIL) before anything is written
 * (QuoteExecutionService.assertRailConfigured), so nothing is ever handed to it.
 */
export class NoRailAdapter extends RailAdapter {
  readonly name = 'none';

  send(): Promise<{ providerRef: string; news: RailNews[] }> {
    return Promise.reject(new RailUnavailable('No payout rail is configured (PAYOUT_RAIL=none)'));
  }

  fetch(): Promise<RailNews[]> {
    return Promise.resolve([]);
  }

  parseWebhook(): RailNews[] {
    throw new RailWebhookRejected('No payout rail is configured (PAYOUT_RAIL=none)');
  }

  expectedSettlementMs(): number {
    return 0;
  }
}
