import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { accountInfoComponents } from './account-info-schemas.js';
import { PUBLIC_OPERATION } from '../auth/auth.decorators.js';
import { addStandardErrors, operationsOf } from './api-errors.js';
import { addOwnWebhooks } from './own-webhooks.js';

/** The OpenAPI 3 document generated from the controllers and DTOs, finished for client generators. */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payments Platform API')
    .setDescription('External accounts, agents, cards and signed webhooks. Errors are `{code, reason, details}`.')
    .setVersion(version)
    .addServer(`/${version}`)
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'BasicAuth')
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'AgentAuth')
    // 3.1: the document has `webhooks` (the own event types' payloads, src/openapi/own-webhooks.ts).
    .setOpenAPIVersion('3.1.0')
    .build();
  const document = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
  return finishDocument(document);
}

/**
 * What the decorators cannot say: the error schemas and standard error responses
 * (src/openapi/api-errors.ts), the accountInfo variants (account-info-schemas.ts), and cleanups
 * that lint rules ask for.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  // @Public() routes: `security: []` (no credential), whatever their controller declares.
  for (const { op } of operationsOf(document)) {
    const marked = op as unknown as Record<string, unknown>;
    if (marked[PUBLIC_OPERATION] === true) {
      op.security = [];
      delete marked[PUBLIC_OPERATION];
    }
  }
  addStandardErrors(document);
  addOwnWebhooks(document);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...accountInfoComponents() },
  };
  document.components.schemas = tidy(document.components.schemas) as typeof document.components.schemas;
  // AgentAuth is declared for the agents area; until a route uses it, it is not listed.
  const usesAgentAuth = JSON.stringify(document.paths).includes('"AgentAuth"');
  if (!usesAgentAuth) delete document.components.securitySchemes?.AgentAuth;
  return document;
}

/**
 * Lint-clean schemas: `nullable: false` is the default (and beside a `$ref` without `type` a lint
 * error), and an `allOf` of one schema with nothing beside it is that schema.
 */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (!value || typeof value !== 'object') return value;
  const record: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === 'nullable' && member === false) continue;
    record[key] = tidy(member);
  }
  const keys = Object.keys(record);
  if (keys.length === 1 && Array.isArray(record.allOf) && record.allOf.length === 1) return record.allOf[0];
  return record;
}

/** Serves the document at `/<version>/openapi.json` and a browsable UI at `/docs`; both public. */
export function setupOpenApi(app: INestApplication, version: string): OpenAPIObject {
  const document = buildOpenApiDocument(app, version);
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: `${version}/openapi.json`,
    raw: ['json'],
  });
  return document;
}
