import type { TestPlatform } from './test-app.js';

/**
 * Asks for this service's own webhook types (outside the reference's list: opt-in,
 * docs/webhooks.md#own-event-types) through PATCH /config's `extraWebhookTypes`; `*` (the default)
 * is every one of them. Returns the platform, for `await wantOwnEvents(await TestPlatform.create(t))`.
 */
export async function wantOwnEvents(p: TestPlatform, types: string[] = ['*']): Promise<TestPlatform> {
  const res = await p.patch('/config', { extraWebhookTypes: types });
  if (res.status !== 200) throw new Error(`PATCH /config: ${res.status} ${JSON.stringify(res.body)}`);
  return p;
}
