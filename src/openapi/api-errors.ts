import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, PathItemObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { errorCatalogue } from '../errors/api-error.js';

/**
 * Error responses in the OpenAPI document. Every non-2xx body is `{code, reason, details?}`: the
 * document has one `Error` schema and, per HTTP status the catalogue uses, an `Error<status>` whose
 * `code` lists that status's codes (from the installed catalogue, src/error-catalogue.ts, so an area's new codes appear by
 * themselves).
 *
 * The errors every route can answer are added to each operation by `addStandardErrors` (400 with
 * input, 401/403/429 unless public, 404 with a path parameter); a route declares the others it
 * answers with `@ApiErrors(409)` next to its `@ApiOperation`.
 */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid input: `INVALID_INPUT` lists every field error in `details.errors`',
  401: 'Missing, malformed, unknown or revoked credentials',
  403: 'The credential lacks the permission this route needs',
  404: 'Not found (another platform’s resource is not found too)',
  405: 'Method not allowed',
  409: 'Conflict with the current state (or an Idempotency-Key reused with another body)',
  410: 'Gone: the resource was deleted',
  422: 'The request cannot be processed in the resource’s current state',
  429: 'Rate limited: retry after the `Retry-After` header',
  500: 'Internal error',
  501: 'Not implemented',
  503: 'Service unavailable: retry after the `Retry-After` header',
};

export const errorSchemaName = (status: number) => `Error${status}`;
const errorRef = (status: number) => ({ $ref: `#/components/schemas/${errorSchemaName(status)}` });

/** Declares the error statuses a route answers with beyond the standard ones. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'Error', schema: errorRef(status) }),
    ),
  );

/** `Error` and one `Error<status>` per status given, its `code` enum from the catalogue. */
export function errorSchemas(statuses: Iterable<number>): Record<string, SchemaObject> {
  const byStatus = new Map<number, string[]>([...statuses].map((status) => [status, []]));
  for (const [code, status] of Object.entries(errorCatalogue())) byStatus.get(status)?.push(code);
  const schemas: Record<string, SchemaObject> = {
    Error: {
      type: 'object',
      description: 'Every non-2xx response body.',
      properties: {
        code: { type: 'string', description: 'Machine-readable error code', example: 'INVALID_INPUT' },
        reason: { type: 'string', description: 'Human-readable explanation' },
        details: {
          type: 'object',
          additionalProperties: true,
          description: 'Structured detail; for INVALID_INPUT `errors`, the list of FieldErrors',
        },
      },
      required: ['code', 'reason'],
    },
  };
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    schemas[errorSchemaName(status)] = {
      allOf: [
        { $ref: '#/components/schemas/Error' },
        {
          type: 'object',
          properties: { code: codes.length ? { type: 'string', enum: codes.sort() } : { type: 'string' } },
        },
      ],
    };
  }
  return schemas;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document with its path and method. */
export function operationsOf(document: OpenAPIObject): Array<{ path: string; method: string; op: OperationObject }> {
  const out: Array<{ path: string; method: string; op: OperationObject }> = [];
  for (const [path, item] of Object.entries<PathItemObject>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ path, method, op });
    }
  }
  return out;
}

/** Adds the error responses every route of its kind can answer, keeping what a route declared. */
export function addStandardErrors(document: OpenAPIObject): void {
  const used = new Set<number>();
  for (const { path, op } of operationsOf(document)) {
    const isPublic = Array.isArray(op.security) && op.security.length === 0;
    const statuses: number[] = [];
    if (op.requestBody || (op.parameters ?? []).length > 0) statuses.push(400);
    if (!isPublic) statuses.push(401, 403);
    if (path.includes('{')) statuses.push(404);
    if (!isPublic) statuses.push(429);
    for (const status of statuses) {
      op.responses[String(status)] ??= {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: errorRef(status) } },
      } satisfies ResponseObject;
    }
    for (const [status, response] of Object.entries(op.responses as Record<string, ResponseObject>)) {
      if (!/^[45]\d\d$/.test(status)) continue;
      used.add(Number(status));
      // An error a route declared with Nest's own decorators (`@ApiNotFoundResponse({description})`)
      // gets the error schema too: every non-2xx body has the one shape.
      response.content ??= { 'application/json': { schema: errorRef(Number(status)) } };
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...errorSchemas(used) },
  };
}
