import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
/** A new symmetric signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret() {
    return `whsec_${randomBytes(32).toString('base64')}`;
}
/**
 * Signs `id.timestamp.body` with every secret (e.g. old + new during a rotation); signatures are
 * space-separated (`v1,… v1,…`) so a receiver holding any one of the secrets verifies.
 */
export function standardWebhookHeaders(opts) {
    const secrets = [...new Set(opts.secrets)];
    if (secrets.length === 0)
        throw new Error('at least one webhook secret is required');
    const signatures = secrets.map((secret) => new Webhook(secret).sign(opts.id, opts.timestamp, opts.body));
    return {
        'webhook-id': opts.id,
        'webhook-timestamp': String(Math.floor(opts.timestamp.getTime() / 1000)), // same rounding as Webhook.sign
        'webhook-signature': signatures.join(' '),
    };
}
//# sourceMappingURL=standard-webhooks.js.map