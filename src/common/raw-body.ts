import { SetMetadata } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import { ApiError } from '../errors/api-error.js';

export const RAW_BODY = 'http:raw-body';
/** The largest body a RawBody route reads (the JSON routes' limit, src/http-pipeline.ts). */
export const RAW_BODY_MAX_BYTES = 1024 * 1024;

/**
 * Marks a route that verifies a signature over its body's exact bytes (a provider's webhook): the
 * JSON body guard (src/http-pipeline.ts) leaves it unread and the handler reads it with `readRawBody`.
 */
export const RawBody = (): MethodDecorator => SetMetadata(RAW_BODY, true);

const rawParser = express.raw({ limit: RAW_BODY_MAX_BYTES, type: () => true });

/** The request body's bytes (400 INVALID_REQUEST_FORMAT beyond RAW_BODY_MAX_BYTES), for a `RawBody` route. */
export function readRawBody(req: Request, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    rawParser(req, res, (err?: unknown) => {
      if (!err) return resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large')
        return reject(
          new ApiError('INVALID_REQUEST_FORMAT', `Request body exceeds ${RAW_BODY_MAX_BYTES} bytes`, {
            details: { maxBytes: RAW_BODY_MAX_BYTES },
          }),
        );
      if (type === 'encoding.unsupported' || type === 'charset.unsupported')
        return reject(new ApiError('INVALID_REQUEST_FORMAT', 'Unsupported body encoding'));
      return reject(new ApiError('INVALID_REQUEST_FORMAT', 'The request body could not be read'));
    }),
  );
}
