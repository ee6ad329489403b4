import { applyDecorators, createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { validateBody } from '../common/validate-body.js';
import { invalidInput } from '../errors/validation-errors.js';
import { retryHeaders, type RetryHeaders } from './wallet-signatures.service.js';

/**
 * The HTTP side of a two-step (202 then signed retry) wallet route, shared by the wallet
 * controllers: the request's retry headers in, the outcome's status and body out.
 *
 * ```ts
 * async revoke(@CurrentPlatform() p, @Param('id') id: string, @SignedRetry() retry: SignedRetryHttp) {
 *   return retry.answer(await this.service.revoke(p.platformId, id, retry.headers));
 * }
 * ```
 */
export interface SignedRetryHttp {
  /** The signed-retry headers (`Service-Wallet-Signature` | `Grid-Wallet-Signature`, `Request-Id`). */
  headers: RetryHeaders;
  /** Answers the outcome: its status (202 with the challenge on the first leg) and its body (none for 204). */
  answer(outcome: { status: number; body: unknown }): unknown;
}

/** Parameter decorator: the route's {@link SignedRetryHttp}. */
export const SignedRetry = createParamDecorator((_: unknown, ctx: ExecutionContext): SignedRetryHttp => {
  const http = ctx.switchToHttp();
  const res = http.getResponse<Response>();
  return {
    headers: retryHeaders(http.getRequest<Request>().headers),
    answer(outcome) {
      res.status(outcome.status);
      return outcome.body ?? undefined;
    },
  };
});

/** The validated body (400 INVALID_INPUT with every field error otherwise). */
export function parseBody<T extends object>(dto: new () => T, body: unknown): T {
  const { value, errors } = validateBody(dto, body);
  if (errors.length) throw invalidInput(errors);
  return value;
}

/** OpenAPI: the 202 leg of a two-step route (its challenge type and what the client does next). */
export function ApiSignedRetryChallenge(type: Type<unknown>, description: string): MethodDecorator {
  return ApiResponse({ status: 202, type, description });
}

/** OpenAPI: the signed retry's headers (the reference's names). */
export function ApiSignedRetryHeaders(): MethodDecorator & ClassDecorator {
  // Applied in this order (Request-Id first), as two stacked `@ApiHeader`s (Grid-Wallet-Signature on top) were.
  return applyDecorators(
    ApiHeader({ name: 'Request-Id', required: false, description: "The signed retry: the 202's requestId" }),
    ApiHeader({
      name: 'Grid-Wallet-Signature',
      required: false,
      description: 'The signed retry: the stamp over payloadToSign (also Service-Wallet-Signature)',
    }),
  );
}
