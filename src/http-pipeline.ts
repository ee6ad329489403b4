import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { SetMetadata } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import type { Level, Logger } from 'pino';
import { clientAddress } from './common/client-address.js';
import { RAW_BODY } from './common/raw-body.js';
import { ApiError } from './errors/api-error.js';
import { sendApiError } from './errors/error-response.js';
import { ContextRequest, requestBindings, requestContext } from './logging/logger.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const PROBES = new Set(['/healthz', '/readyz']);

/** Level of a request's access line: probes at debug, 5xx at error, the rest at info. */
function accessLevel(req: Request, status: number): Level {
  if (status >= 500) return 'error';
  return PROBES.has(req.path) ? 'debug' : 'info';
}

/** What every response carries whatever it answers (helmet's headers, computed once: see security.ts). */
export type StaticHeaders = ReadonlyArray<readonly [string, string]>;

/** What the entry middleware records when a response ends. */
export interface RequestObserver {
  /** A request started (in flight until `end`). */
  start(): void;
  /** It ended: its method, route template (`unmatched` when no route matched), status, seconds. */
  end(method: string, route: string, status: number, seconds: number): void;
}

export interface EntryOptions {
  logger: Logger;
  /**
   * Security headers: `api` on every answer, `docs` instead under `/docs` (an HTML page), `console`
   * on the console's pages and assets (`/console`, but not its JSON `/console/api/`).
   */
  headers: { api: StaticHeaders; docs: StaticHeaders; console: StaticHeaders };
  observer: RequestObserver;
  /** Answers `Connection: close` while true (draining on SIGTERM). */
  draining: () => boolean;
  deadlines: RequestDeadlines;
}

/**
 * The one middleware every request passes first, doing in one place (one closure, one `close`
 * listener) what each request needs before routing: `X-Request-Id` (echoed when the client sent a
 * sane one, generated otherwise), the security headers, `Connection: close` while draining, its
 * deadline, and, when it ends, the metrics and the access line. The request itself is the request
 * context (`requestContext`), so every line logged while it is served carries `reqId` and, once
 * authenticated, `platformId` (the logger's mixin); the access line carries them too.
 */
/** A URL as the access line writes it: a `t` query parameter (a single-use bearer token, e.g. a card reveal link) redacted. */
export function loggedUrl(url: string): string {
  return url.includes('t=') ? url.replace(/([?&]t=)[^&#]*/g, '$1[redacted]') : url;
}

export function requestEntry(options: EntryOptions) {
  const { logger, headers, observer, draining, deadlines } = options;
  return (req: Request, res: Response, next: NextFunction): void => {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    (req as ContextRequest).id = id;
    res.setHeader('X-Request-Id', id);
    const url = req.url;
    const security = url.startsWith('/docs')
      ? headers.docs
      : url.startsWith('/console') && !url.startsWith('/console/api/')
        ? headers.console
        : headers.api;
    for (let i = 0; i < security.length; i++) res.setHeader(security[i][0], security[i][1]);
    if (draining()) res.setHeader('Connection', 'close');
    const start = performance.now();
    observer.start();
    deadlines.add(res);
    res.once('close', () => {
      deadlines.delete(res);
      const path = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof path === 'string' ? path : undefined;
      const elapsed = performance.now() - start;
      observer.end(req.method, route ?? 'unmatched', res.statusCode, elapsed / 1000);
      const level = accessLevel(req, res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          ...requestBindings(req as ContextRequest), // also when the close comes outside the request's context
          req: { method: req.method, url: loggedUrl(req.originalUrl), remoteAddress: clientAddress(req) },
          route,
          res: { status: res.statusCode },
          responseTime: Math.round(elapsed),
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request completed',
      );
    });
    requestContext.run(req as ContextRequest, next);
  };
}

/**
 * REQUEST_TIMEOUT_MS for serving a request: one timer for the whole process instead of one per
 * request. Responses are kept in arrival order, so each sweep looks only at the oldest; one still
 * unanswered at its deadline gets 503 `SERVICE_UNAVAILABLE` (retryable, `Retry-After: 1`), within
 * a tenth of the timeout. The work already started is not undone (its transaction may still
 * commit): a retry with the same `Idempotency-Key` is safe; the handler's own answer, when it
 * comes, is dropped (the exceptions filter ignores a response already sent). Receiving the request
 * is bounded by the same value (Node's `requestTimeout`, answered 408).
 */
export class RequestDeadlines {
  private readonly open = new Map<Response, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly ms: number) {}

  add(res: Response): void {
    this.open.set(res, performance.now() + this.ms);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), Math.max(10, Math.min(1000, this.ms / 10)));
      this.timer.unref();
    }
  }

  delete(res: Response): void {
    this.open.delete(res);
  }

  /** Answers every response past its deadline (all at the front: deadlines grow with arrival). */
  sweep(now = performance.now()): void {
    for (const [res, deadline] of this.open) {
      if (deadline > now) return;
      this.open.delete(res);
      sendApiError(
        res,
        new ApiError('SERVICE_UNAVAILABLE', `The request was not served within ${this.ms} ms; retry later`, {
          retryAfterSeconds: 1,
        }),
      );
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Bodies nested deeper than this (arrays and objects) are refused before they are parsed. */
export const MAX_BODY_DEPTH = 64;

/**
 * Whether a UTF-8 JSON text nests arrays and objects deeper than `limit`, brackets inside strings
 * ignored. One pass over the bytes, no allocation, stops at the first level too deep: cheap enough
 * to run before JSON.parse (and class-transformer, whose recursion a deep body would overflow).
 */
export function nestedDeeperThan(text: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      // a backslash escapes the next byte (so `\"` does not end the string)
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

class BodyTooDeep extends Error {
  readonly type = 'entity.too.deep';
}

/** Another UTF charset (utf-16le...), re-encoded for the depth scan. */
function toUtf8(raw: Buffer, encoding: string): Buffer {
  try {
    return Buffer.from(new TextDecoder(encoding).decode(raw), 'utf8');
  } catch {
    throw Object.assign(new Error(`unsupported charset ${encoding}`), { type: 'charset.unsupported' });
  }
}

const jsonParser = express.json({
  limit: MAX_BODY_BYTES,
  strict: true,
  type: () => true,
  verify: (_req, _res, raw, encoding) => {
    if (nestedDeeperThan(encoding === 'utf-8' ? raw : toUtf8(raw, encoding), MAX_BODY_DEPTH)) throw new BodyTooDeep();
  },
});

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Parses a JSON body: another content type (`details.accepts`), malformed JSON, nesting deeper
 * than MAX_BODY_DEPTH or more than 1 MiB (`details.maxBytes`) are 400 INVALID_REQUEST_FORMAT
 * (rejected ApiErrors).
 */
export function parseJsonBody(req: Request, res: Response): Promise<void> {
  if (!hasBody(req)) return Promise.resolve();
  if (!req.is('application/json') && !req.is('application/*+json')) {
    return Promise.reject(
      new ApiError('INVALID_REQUEST_FORMAT', 'Request bodies must be application/json', {
        details: { accepts: 'application/json' },
      }),
    );
  }
  return new Promise((resolve, reject) =>
    jsonParser(req, res, (err?: unknown) => {
      if (!err) return resolve();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large')
        return reject(
          new ApiError('INVALID_REQUEST_FORMAT', `Request body exceeds ${MAX_BODY_BYTES} bytes`, {
            details: { maxBytes: MAX_BODY_BYTES },
          }),
        );
      if (type === 'encoding.unsupported' || type === 'charset.unsupported')
        return reject(new ApiError('INVALID_REQUEST_FORMAT', 'Unsupported body encoding'));
      if (type === 'entity.too.deep')
        return reject(
          new ApiError('INVALID_REQUEST_FORMAT', `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`),
        );
      return reject(new ApiError('INVALID_REQUEST_FORMAT', 'Request body is not valid JSON'));
    }),
  );
}

/**
 * Global guard, registered after the auth guard (`useGlobalGuards` comes after every `APP_GUARD`),
 * so the body is read and parsed only once the request's credentials were accepted: a caller
 * without valid credentials (or a request to an unknown route) never costs a parse. A guard rather
 * than an interceptor: a request without a body passes synchronously, and a route without
 * interceptors of its own is called without any interceptor chain (rxjs) at all. Guards run before
 * every interceptor (idempotency reads the parsed body).
 */
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (!hasBody(req)) return true;
    // A multipart route reads its own body, with its own limits (src/common/multipart.ts).
    if (Reflect.getMetadata(MULTIPART_BODY, context.getHandler()) === true) return true;
    // A signed webhook reads its exact bytes (the signature is over them): readRawBody.
    if (Reflect.getMetadata(RAW_BODY, context.getHandler()) === true) return true;
    return parseJsonBody(req, http.getResponse<Response>()).then(() => true);
  }
}

export const MULTIPART_BODY = 'http:multipart-body';

/**
 * Marks a route whose body is multipart/form-data: the JSON body guard leaves it unread and the
 * handler parses it with `readMultipart` / `streamMultipart` (src/common/multipart.ts).
 */
export const MultipartBody = (): MethodDecorator => SetMetadata(MULTIPART_BODY, true);

/**
 * What a Node HTTP parser error answers: always the reference's 400 INVALID_REQUEST_FORMAT (where
 * Node alone would answer 431, 413 or 408), `details.limit` naming the limit a request broke.
 */
function parserErrorAnswer(code = ''): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('INVALID_REQUEST_FORMAT', 'Request headers are too large', {
        details: { limit: 'HEADER_SIZE' },
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('INVALID_REQUEST_FORMAT', 'Chunk extensions are too large', {
        details: { limit: 'CHUNK_EXTENSIONS_SIZE' },
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('INVALID_REQUEST_FORMAT', 'The request was not received in time', {
        details: { limit: 'REQUEST_TIMEOUT_MS' },
      });
    default:
      return new ApiError('INVALID_REQUEST_FORMAT', 'Malformed HTTP request');
  }
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 KiB, bad framing, unknown methods, not
 * HTTP) never reach Express: answer them here in the error shape, with an `X-Request-Id` that is
 * also on their log line, when the connection can still carry an answer; then close it.
 */
export function answerParserErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const error = parserErrorAnswer(err.code);
    const reqId = randomUUID();
    const body = JSON.stringify({ code: error.code, reason: error.reason, details: error.details });
    socket.end(
      [
        `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${reqId}`,
        `x-should-retry: ${String(error.retryable)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    logger.info({ reqId, res: { status: error.status }, parserError: err.code }, 'request refused by the HTTP parser');
  });
}
