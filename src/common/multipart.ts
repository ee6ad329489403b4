import busboy from 'busboy';
import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';

/**
 * multipart/form-data bodies, parsed by busboy (the parser multer uses) with limits, never by
 * hand. A route that takes one is marked `@MultipartBody()` so the JSON body guard leaves its body
 * alone (src/http-pipeline.ts).
 */

/** Room for the form's other fields and part headers beside the file. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 4096;
const MAX_FIELDS = 20;

export interface MultipartLimits {
  /** The file part's maximum size in bytes: a larger one is 413 before the rest is read. */
  maxFileBytes: number;
  /** The name of the one file part (the reference: `file`). */
  fileField?: string;
}

export interface UploadedFile {
  bytes: Buffer;
  /** The client's file name as sent (sanitize before keeping it). */
  fileName: string | null;
}

export interface MultipartForm {
  fields: Record<string, string>;
  file: UploadedFile | null;
  /** Problems with the form's parts (an unknown file part, an over-long field, a NUL): FieldErrors. */
  errors: FieldError[];
}

function isMultipart(req: Request): boolean {
  return req.is('multipart/form-data') === 'multipart/form-data';
}

/**
 * Refuses a request before reading its body (400 INVALID_REQUEST_FORMAT): not multipart
 * (`details.accepts`), or a declared length beyond what the form may hold (`details.maxBytes`). The connection is closed after a refusal, so an unread body is never read.
 */
function refuseEarly(req: Request, res: Response, maxBodyBytes: number): void {
  if (!isMultipart(req))
    throw new ApiError('INVALID_REQUEST_FORMAT', 'Request bodies must be multipart/form-data', {
      details: { accepts: 'multipart/form-data' },
    });
  const length = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(length) && length > maxBodyBytes) {
    res.setHeader('Connection', 'close');
    throw new ApiError('INVALID_REQUEST_FORMAT', `Request body exceeds ${maxBodyBytes} bytes`, {
      details: { maxBytes: maxBodyBytes },
    });
  }
}

function tooLarge(res: Response, maxFileBytes: number): ApiError {
  res.setHeader('Connection', 'close');
  return new ApiError('INVALID_REQUEST_FORMAT', `The file exceeds ${maxFileBytes} bytes`, {
    details: { field: 'file', maxBytes: maxFileBytes },
  });
}

function malformed(res: Response, message: string): ApiError {
  res.setHeader('Connection', 'close');
  return new ApiError('INVALID_REQUEST_FORMAT', `Malformed multipart body: ${message}`);
}

function parser(req: Request, res: Response, maxFileBytes: number) {
  try {
    return busboy({
      headers: req.headers,
      // busboy reports `limit` once a file reaches `fileSize` bytes: one more than the maximum.
      limits: {
        fileSize: maxFileBytes + 1,
        files: 2,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FIELDS + 2,
      },
    });
  } catch (error) {
    throw malformed(res, error instanceof Error ? error.message : 'unreadable');
  }
}

function checkField(name: string, value: string, truncated: boolean, errors: FieldError[]): boolean {
  if (truncated) {
    errors.push(fieldError(name, `${name} must be at most ${MAX_FIELD_BYTES} bytes`, { maxLength: MAX_FIELD_BYTES }));
    return false;
  }
  if (value.includes('\u0000')) {
    errors.push(fieldError(name, `${name} must not contain NUL characters`));
    return false;
  }
  return true;
}

/**
 * Reads a whole form whose one file is at most `maxFileBytes` (kept in memory: documents are
 * small). Answers 415 for another content type, 413 for a larger file (declared or streamed),
 * 400 INVALID_REQUEST_FORMAT for a truncated or malformed body.
 */
export function readMultipart(req: Request, res: Response, limits: MultipartLimits): Promise<MultipartForm> {
  refuseEarly(req, res, limits.maxFileBytes + FORM_OVERHEAD_BYTES);
  const fileField = limits.fileField ?? 'file';
  const bb = parser(req, res, limits.maxFileBytes);
  const form: MultipartForm = { fields: Object.create(null) as Record<string, string>, file: null, errors: [] };
  return new Promise<MultipartForm>((resolve, reject) => {
    let settled = false;
    let pendingFile: Promise<void> = Promise.resolve();
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      bb.removeAllListeners('finish');
      reject(error);
    };
    bb.on('field', (name, value, info) => {
      if (checkField(name, value, info.valueTruncated || info.nameTruncated, form.errors)) form.fields[name] = value;
    });
    bb.on('file', (name, stream: Readable, info) => {
      if (name !== fileField || form.file !== null) {
        form.errors.push(fieldError(name, `unexpected file part: send one file, in \`${fileField}\``));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      form.file = { bytes: Buffer.alloc(0), fileName: info.filename ?? null };
      const file = form.file;
      pendingFile = new Promise<void>((done) => {
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('limit', () => fail(tooLarge(res, limits.maxFileBytes)));
        stream.on('error', (error: unknown) =>
          fail(malformed(res, error instanceof Error ? error.message : 'unreadable')),
        );
        stream.on('end', () => {
          file.bytes = Buffer.concat(chunks);
          done();
        });
      });
    });
    bb.on('filesLimit', () => form.errors.push(fieldError(fileField, 'send one file')));
    bb.on('fieldsLimit', () => fail(malformed(res, `more than ${MAX_FIELDS} fields`)));
    bb.on('partsLimit', () => fail(malformed(res, 'too many parts')));
    bb.on('error', (error: unknown) => fail(malformed(res, error instanceof Error ? error.message : 'unreadable')));
    bb.on('finish', () => {
      void pendingFile.then(() => {
        if (settled) return;
        settled = true;
        resolve(form);
      });
    });
    req.on('aborted', () => fail(malformed(res, 'the request was aborted')));
    req.on('error', () => fail(malformed(res, 'the request failed')));
    req.pipe(bb);
  });
}

/**
 * Streams a form's one file to `consume` (bounded memory: for large uploads such as CSV imports).
 * Fields sent before the file are passed along; `consume` must read the stream to its end.
 * `maxFileBytes` is checked as the bytes arrive (413, the connection then closed).
 */
export function streamMultipart<T>(
  req: Request,
  res: Response,
  limits: MultipartLimits,
  consume: (file: Readable, fileName: string | null, fields: Record<string, string>) => Promise<T>,
): Promise<T> {
  refuseEarly(req, res, limits.maxFileBytes + FORM_OVERHEAD_BYTES);
  const fileField = limits.fileField ?? 'file';
  const bb = parser(req, res, limits.maxFileBytes);
  const fields = Object.create(null) as Record<string, string>;
  const errors: FieldError[] = [];
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let result: Promise<T> | null = null;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    bb.on('field', (name, value, info) => {
      if (checkField(name, value, info.valueTruncated || info.nameTruncated, errors)) fields[name] = value;
    });
    bb.on('file', (name, stream: Readable, info) => {
      if (name !== fileField || result !== null) {
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        const error = tooLarge(res, limits.maxFileBytes);
        stream.destroy(error);
        fail(error);
      });
      stream.on('error', (error: unknown) => fail(error instanceof ApiError ? error : malformed(res, String(error))));
      result = consume(stream, info.filename ?? null, fields);
      result.catch(fail);
    });
    bb.on('fieldsLimit', () => fail(malformed(res, `more than ${MAX_FIELDS} fields`)));
    bb.on('partsLimit', () => fail(malformed(res, 'too many parts')));
    bb.on('error', (error: unknown) => {
      const e = malformed(res, error instanceof Error ? error.message : 'unreadable');
      fail(e);
    });
    bb.on('finish', () => {
      if (settled) return;
      if (result === null) {
        settled = true;
        reject(invalidInput([...errors, fieldError(fileField, `${fileField} is required`)]));
        return;
      }
      result.then((value) => {
        if (settled) return;
        settled = true;
        resolve(value);
      }, fail);
    });
    req.on('aborted', () => fail(malformed(res, 'the request was aborted')));
    req.pipe(bb);
  });
}
