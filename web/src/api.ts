/**
 * The console's only way to the server: the service's own REST API (`/2025-10-13/...`) with the
 * session cookie, plus the console's sign-in routes (`/console/api/session`). The CSRF token lives
 * in memory only (never in storage or a URL); every write sends it as X-CSRF-Token.
 */
export const API = '/2025-10-13';
const SESSION = '/console/api/session';

export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

export interface Session {
  platformId: string;
  token: { id: string; name: string; permissions: Permission[] };
  csrfToken: string;
  sandbox: boolean;
  /** SANDBOX=true on PostgreSQL: shown as a banner on every page. */
  sandboxOnDatabase: boolean;
  idleTimeoutSeconds: number;
}

export interface FieldError {
  field: string;
  message?: string;
}

/** A non-2xx answer, in the API's `{code, reason, details}` shape. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(reason);
  }

  /** The FieldErrors of a 400 INVALID_INPUT, by field. */
  get fieldErrors(): Record<string, string> {
    const errors = (this.details?.errors ?? []) as FieldError[];
    const byField: Record<string, string> = {};
    for (const e of errors) byField[e.field] = e.message ?? 'Invalid value';
    return byField;
  }
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

/** Called once by the app: where a 401 (session ended) sends the operator. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

async function call<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    // X-Requested-With: a 401 then carries no Basic challenge (no browser credentials prompt).
    headers: { Accept: 'application/json', 'X-Requested-With': 'console', ...headers },
    cache: 'no-store',
  };
  if (method !== 'GET' && csrfToken) (init.headers as Record<string, string>)['X-CSRF-Token'] = csrfToken;
  if (body !== undefined) {
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const err = (parsed ?? {}) as { code?: string; reason?: string; details?: Record<string, unknown> };
    const failure = new ApiFailure(res.status, err.code ?? 'ERROR', err.reason ?? res.statusText, err.details);
    if (res.status === 401 && !url.startsWith(SESSION)) {
      csrfToken = null;
      onSignedOut();
    }
    throw failure;
  }
  return parsed as T;
}

/** A REST route of the API, e.g. `get('/cards?status=ACTIVE')`. */
export const get = <T>(path: string) => call<T>('GET', `${API}${path}`);
export const post = <T>(path: string, body?: unknown, idempotent = false) =>
  call<T>('POST', `${API}${path}`, body, idempotent ? { 'Idempotency-Key': crypto.randomUUID() } : {});
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', `${API}${path}`, body);

/** The console's own read routes (`/console/api/...`: overview, names, search), session cookie only. */
export const CONSOLE_API = '/console/api';
export const consoleGet = <T>(path: string) => call<T>('GET', `${CONSOLE_API}${path}`);
/** A console action route (`/console/api/...`), with the session's CSRF token like every write. */
export const consolePost = <T>(path: string, body?: unknown) => call<T>('POST', `${CONSOLE_API}${path}`, body);

export async function signIn(clientId: string, clientSecret: string): Promise<Session> {
  const session = await call<Session>('POST', SESSION, { clientId, clientSecret });
  csrfToken = session.csrfToken;
  return session;
}

/** The current session after a reload, or null when signed out. */
export async function currentSession(): Promise<Session | null> {
  try {
    const session = await call<Session>('GET', SESSION);
    csrfToken = session.csrfToken;
    return session;
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 401) return null;
    throw err;
  }
}

export async function signOut(): Promise<void> {
  try {
    await call<void>('DELETE', SESSION);
  } finally {
    csrfToken = null;
  }
}

export const can = (session: Session, permission: Permission) => session.token.permissions.includes(permission);

/** Query string from defined values. */
export function qs(params: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** A readable message for a failure: the API's reason, with its code. */
export function describe(err: unknown): string {
  if (err instanceof ApiFailure) return `${err.reason} (${err.code})`;
  return err instanceof Error ? err.message : String(err);
}
