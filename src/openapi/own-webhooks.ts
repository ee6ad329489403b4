import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { OWN_WEBHOOK_TYPES } from '../outbox/webhook-types.js';

/**
 * The service's own webhook types (outside the reference's closed `WebhookType` list, opt-in per
 * platform with `extraWebhookTypes`, docs/webhooks.md#own-event-types) in the served document's
 * `webhooks`, as the reference documents its own: one entry per resource, its body a
 * `<Resource>Webhook` schema (the envelope `{id, type, timestamp, data}` with the resource's types
 * and its `data`). `data` is what the matching read route renders: the same component schema.
 */
interface OwnWebhookResource {
  /** The part of the type before the dot. */
  resource: string;
  /** The `webhooks` key and the operationId's stem. */
  key: string;
  summary: string;
  /** The schema of `data`: a component of the document (the read route's), or inline. */
  data: ReferenceObject | SchemaObject;
}

const component = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

export const OWN_WEBHOOK_RESOURCES: readonly OwnWebhookResource[] = [
  {
    resource: 'STABLECOIN_OPERATION',
    key: 'stablecoin-operation',
    summary: 'A stablecoin mint or burn entered a status (as GET /stablecoin-operations/{stablecoinOperationId})',
    data: component('StablecoinOperation'),
  },
  {
    resource: 'STABLECOIN',
    key: 'stablecoin',
    summary: "A stablecoin's Grid operations status changed (as GET /stablecoins/{stablecoinId})",
    data: component('Stablecoin'),
  },
  {
    resource: 'AUTH_CREDENTIAL',
    key: 'auth-credential',
    summary: "An embedded wallet's authentication credential was created or revoked (as GET /auth/credentials)",
    data: component('AuthMethod'),
  },
  {
    resource: 'AUTH_SESSION',
    key: 'auth-session',
    summary: 'An embedded wallet session was opened or revoked (as GET /auth/sessions)',
    data: component('AuthSession'),
  },
  {
    resource: 'INTERNAL_ACCOUNT',
    key: 'internal-account-exported',
    summary: "An embedded wallet's credentials were exported (never the secret)",
    data: {
      type: 'object',
      required: ['id', 'requestId', 'exportedAt'],
      properties: {
        id: { type: 'string', description: 'The internal account (`InternalAccount:<uuid>`)' },
        requestId: { type: 'string', description: 'The signed export request (`Request:<uuid>`)' },
        exportedAt: { type: 'string', format: 'date-time' },
      },
    },
  },
  {
    resource: 'DELEGATED_KEY',
    key: 'delegated-key',
    summary: "A card's delegated key was created, activated or revoked (as GET /auth/delegated-keys/{id})",
    data: component('DelegatedKeyView'),
  },
];

const pascal = (resource: string) =>
  resource
    .toLowerCase()
    .split('_')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The own types of a resource, in OWN_WEBHOOK_TYPES' order. */
export function ownTypesOf(resource: string): string[] {
  return OWN_WEBHOOK_TYPES.filter((type) => type.split('.')[0] === resource);
}

/** Adds `webhooks` (and the envelope schemas they use) to the document. */
export function addOwnWebhooks(document: OpenAPIObject): void {
  const covered = OWN_WEBHOOK_RESOURCES.flatMap((r) => ownTypesOf(r.resource));
  const missing = OWN_WEBHOOK_TYPES.filter((type) => !covered.includes(type));
  if (missing.length) throw new Error(`own webhook types without a documented payload: ${missing.join(', ')}`);
  const schemas: Record<string, SchemaObject> = {
    OwnWebhookEnvelope: {
      type: 'object',
      description: "The body of every webhook: the reference's BaseWebhook",
      required: ['id', 'type', 'timestamp', 'data'],
      properties: {
        id: { type: 'string', description: 'Unique per event, the same on every retry (`Webhook:<uuid>`)' },
        type: { type: 'string', description: 'OBJECT.EVENT' },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event occurred' },
        data: { type: 'object' },
      },
    },
  };
  const webhooks: Record<string, unknown> = {};
  for (const r of OWN_WEBHOOK_RESOURCES) {
    const name = `${pascal(r.resource)}${r.key.endsWith('-exported') ? 'Exported' : ''}Webhook`;
    schemas[name] = {
      allOf: [
        { $ref: '#/components/schemas/OwnWebhookEnvelope' },
        {
          type: 'object',
          required: ['type', 'data'],
          properties: { type: { type: 'string', enum: ownTypesOf(r.resource) }, data: r.data },
        },
      ],
    };
    webhooks[r.key] = {
      post: {
        summary: r.summary,
        description: `Opt-in: sent only to a platform whose \`extraWebhookTypes\` (PATCH /config) names the type, \`${r.resource}.*\` or \`*\`. Signed like every webhook (\`X-Grid-Signature\`).`,
        operationId: `${r.key.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
        tags: ['Webhooks'],
        security: [{ WebhookSignature: [] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '200': { description: 'Received: any 2xx' },
          '400': { description: 'Refused: retried with backoff' },
        },
      },
    };
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...schemas },
    securitySchemes: {
      ...document.components?.securitySchemes,
      // The reference's name: the receiver verifies X-Grid-Signature with the platform's webhookPublicKey.
      WebhookSignature: { type: 'apiKey', in: 'header', name: 'X-Grid-Signature' },
    },
  };
  document.webhooks = webhooks as OpenAPIObject['webhooks'];
}
