import type { ArgumentsHost } from '@nestjs/common';
import { AllExceptionsFilter } from '../../../src/errors/all-exceptions.filter.js';
import '../../../src/error-catalogue.js'; // installs the areas' codes (UMA_ADDRESS_EXISTS)
import { ApiError } from '../../../src/errors/api-error.js';
import { Logger } from '@nestjs/common';

beforeAll(() => {
  Logger.overrideLogger(false);
});

function run(exception: unknown) {
  const sent: { status?: number; body?: Record<string, unknown>; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (k: string, v: string) => (sent.headers[k.toLowerCase()] = v),
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: Record<string, unknown>) {
      sent.body = body;
    },
  };
  const req = { id: 'req-42', method: 'GET', originalUrl: '/x', path: '/x' };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

describe('AllExceptionsFilter', () => {
  it('renders ApiError as {code, reason, details}', () => {
    const out = run(new ApiError('UMA_ADDRESS_EXISTS', 'UMA address taken', { details: { field: 'umaAddress' } }));
    expect(out.status).toBe(409);
    expect(out.body).toEqual({
      code: 'UMA_ADDRESS_EXISTS',
      reason: 'UMA address taken',
      details: { field: 'umaAddress' },
    });
    expect(out.headers['x-should-retry']).toBe('false');
  });

  it('never leaks internals on a 500, and gives the request id', () => {
    const out = run(new Error('duplicate key value violates unique constraint "secret_table" SELECT * FROM x'));
    expect(out.status).toBe(500);
    expect(out.body).toEqual({
      code: 'INTERNAL_ERROR',
      reason: 'An internal error occurred',
      details: { requestId: 'req-42' },
    });
    expect(JSON.stringify(out.body)).not.toMatch(/SELECT|secret_table|at /);
  });

  it('maps an unreachable database to 503, retryable', () => {
    const out = run(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(out.status).toBe(503);
    expect(out.body?.code).toBe('SERVICE_UNAVAILABLE');
    expect(out.headers['x-should-retry']).toBe('true');
    expect(out.headers['retry-after']).toBeDefined();
  });
});
