import { randomUUID } from 'node:crypto';
import express, { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { ApiError } from './errors/api-error.js';
import { sendApiError } from './errors/error-response.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** `X-Request-Id`: echoed when the client sent a sane one, generated otherwise; logged on every line. */
export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const sent = req.headers['x-request-id'];
      const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customProps: (req) => ({ route: ((req as Request).route as { path?: string } | undefined)?.path }),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
  });
}

const jsonParser = express.json({ limit: MAX_BODY_BYTES, strict: true, type: () => true });

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * JSON bodies only: another content type is 415, malformed JSON 400 INVALID_REQUEST_FORMAT,
 * more than 1 MiB 413, all in the error shape.
 */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req)) return next();
  if (!req.is('application/json') && !req.is('application/*+json')) {
    return sendApiError(res, new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be application/json'));
  }
  jsonParser(req, res, (err?: unknown) => {
    if (!err) return next();
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large')
      return sendApiError(res, new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`));
    if (type === 'encoding.unsupported' || type === 'charset.unsupported')
      return sendApiError(res, new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding'));
    return sendApiError(res, new ApiError('INVALID_REQUEST_FORMAT', 'Request body is not valid JSON'));
  });
}
