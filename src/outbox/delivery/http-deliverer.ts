import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { RealClock, SystemClock } from '../../common/clock.js';
import { assertHostAllowed, safeLookup } from './ssrf-guard.js';

/** Outcome of one POST attempt. `deliver` never throws: failures are reported in `error`. */
export interface DeliveryResult {
  /** HTTP status, or null when no response was received. */
  status: number | null;
  /** First 1 KiB of the response body, decoded as UTF-8. */
  responseBody: string;
  /** From `Retry-After` (delta-seconds or HTTP-date), relative to now. */
  retryAfterMs: number | null;
  /** e.g. 'timeout', 'ECONNREFUSED', 'blocked: private address', 'redirect not followed'. */
  error: string | null;
  durationMs: number;
}

export interface HttpDelivererOptions {
  allowPrivateTargets: boolean;
  /** Total time for connect + request + response, default 10 s. */
  timeoutMs?: number;
  /** Per-host socket cap of each agent, default 50. */
  maxSockets?: number;
  userAgent?: string;
  /** Reads "now" for `Retry-After` HTTP-dates; default the system clock. */
  clock?: RealClock;
}

export const MAX_RESPONSE_BODY_BYTES = 1024;
/** Bytes past the captured 1 KiB we read and discard to keep the socket reusable; more and we close it. */
const MAX_DRAIN_BYTES = 64 * 1024;
const DEFAULT_USER_AGENT = 'payments-platform-webhooks/1.0';

type Outcome = Omit<DeliveryResult, 'durationMs'>;

export class HttpDeliverer {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly lookup: ReturnType<typeof safeLookup>;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly clock: RealClock;

  constructor(private readonly options: HttpDelivererOptions) {
    this.lookup = safeLookup(options.allowPrivateTargets);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 50, lookup: this.lookup };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.clock = options.clock ?? new SystemClock();
  }

  async deliver(url: string, body: string, headers: Record<string, string>): Promise<DeliveryResult> {
    const started = performance.now();
    const outcome = await this.post(url, body, headers).catch((err: unknown) => failure(describeError(err)));
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  /** Destroys the agents and their pooled sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new Error(`unsupported protocol ${target.protocol}`);
    }
    assertHostAllowed(target.hostname, this.options.allowPrivateTargets);
    const isHttps = target.protocol === 'https:';
    const req = (isHttps ? https : http).request(target, {
      method: 'POST',
      agent: isHttps ? this.httpsAgent : this.httpAgent,
      lookup: this.lookup,
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': this.userAgent,
        ...headers,
        'Content-Length': String(Buffer.byteLength(body)),
      },
    });
    return new Promise<Outcome>((resolve) => {
      let res: http.IncomingMessage | undefined;
      const chunks: Buffer[] = [];
      let settled = false;
      const finish = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const finishWithResponse = (error: string | null = null): void => {
        if (res)
          finish({ ...responseOutcome(res, Buffer.concat(chunks), this.clock.now()), ...(error ? { error } : {}) });
      };

      const timer = setTimeout(() => {
        // With headers already in, keep the status (and partial body) and still flag the timeout.
        if (res) finishWithResponse('timeout');
        else finish(failure('timeout'));
        req.destroy();
      }, this.timeoutMs);

      req.on('error', (err) => finish(failure(describeError(err))));
      req.on('response', (response) => {
        res = response;
        let kept = 0;
        let discarded = 0;
        response.on('data', (chunk: Buffer) => {
          const keep = chunk.subarray(0, MAX_RESPONSE_BODY_BYTES - kept);
          if (keep.length > 0) chunks.push(keep);
          kept += keep.length;
          discarded += chunk.length - keep.length;
          if (discarded > MAX_DRAIN_BYTES) response.destroy(); // too much to drain: close the socket
        });
        response.on('end', () => finishWithResponse()); // fully read: the socket returns to the pool
        response.on('close', () => finishWithResponse()); // destroyed mid-body: report what we have
        response.on('error', () => undefined); // always followed by 'close'
      });
      req.end(body);
    });
  }
}

function responseOutcome(res: http.IncomingMessage, body: Buffer, now: Date): Outcome {
  const status = res.statusCode ?? null;
  const isRedirect = status !== null && status >= 300 && status < 400;
  return {
    status,
    responseBody: body.toString('utf8'),
    retryAfterMs: parseRetryAfter(res.headers['retry-after'], now.getTime()),
    error: isRedirect ? 'redirect not followed' : null,
  };
}

function failure(error: string): Outcome {
  return { status: null, responseBody: '', retryAfterMs: null, error };
}

function describeError(err: unknown): string {
  if (err === null || typeof err !== 'object') return String(err);
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (e.code === 'ESSRF_BLOCKED') return 'blocked: private address';
  if (typeof e.code === 'string') return e.code;
  // Happy Eyeballs (autoSelectFamily) reports an AggregateError of per-address failures.
  if (Array.isArray(e.errors) && e.errors.length > 0) return describeError(e.errors[0]);
  return typeof e.message === 'string' ? e.message : 'unknown error';
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP-date; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i.test(trimmed)) return null; // every HTTP-date form starts with a day name
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
