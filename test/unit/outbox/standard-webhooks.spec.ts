import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SystemClock } from '../../../src/common/clock.js';
import { newWebhookSecret, standardWebhookHeaders } from '../../../src/outbox/signing/standard-webhooks.js';

describe('standard webhooks', () => {
  const body = JSON.stringify({ id: 'Webhook:1', type: 'TEST', data: {} });

  it('creates whsec_ secrets of 32 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs with every secret so either verifies during a rotation, and a third does not', () => {
    const [oldSecret, newSecret, otherSecret] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const timestamp = new SystemClock().now(); // verify() checks a 5-minute tolerance around now
    const headers = standardWebhookHeaders({ id: 'msg_1', timestamp, body, secrets: [oldSecret, newSecret] });

    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);

    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(otherSecret).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('fails verification on a changed body or id', () => {
    const secret = newWebhookSecret();
    const headers = standardWebhookHeaders({
      id: 'msg_2',
      timestamp: new SystemClock().now(),
      body,
      secrets: [secret],
    });
    expect(() => new Webhook(secret).verify(body + ' ', headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_3' })).toThrow(
      WebhookVerificationError,
    );
  });

  it('requires at least one secret', () => {
    expect(() => standardWebhookHeaders({ id: 'x', timestamp: new SystemClock().now(), body, secrets: [] })).toThrow();
  });
});
