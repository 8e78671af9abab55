import { redactDeep, type SecretSet } from '../../log/redact.js';
import {
  BadRequestError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError, ServerError,
  UnauthorizedError, UnexpectedStatusError, problemSlug, type ApiError, type Problem,
} from '../errors.js';

export interface HttpFailure {
  readonly operation: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** Current time, for Retry-After given as an HTTP date. */
  readonly nowMs: number;
  readonly secrets?: SecretSet;
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-correlation-id'];

/**
 * The one place where a non-2xx response becomes a typed error. Dispatches on the problem type's
 * slug first (`already-exists` is a conflict whatever the status), then on the status. Any JSON
 * body is read as a problem whatever its content type; non-JSON bodies (gateway HTML) are ignored.
 */
export function mapHttpError(f: HttpFailure): ApiError {
  const problem = parseProblem(f.text, f.secrets);
  const init = { operation: f.operation, status: f.status, requestId: requestIdOf(f.headers), problem };
  const title = problem?.title ?? defaultTitle(f.status);
  const detail = problem?.detail ? `: ${problem.detail}` : '';
  const scrub = (s: string): string => (f.secrets ? f.secrets.scrub(s) : (redactDeep(s) as string));
  const message = scrub(`${f.operation} failed with HTTP ${f.status} ${title}${detail}`);
  const slug = problemSlug(problem?.type);
  if (slug === 'already-exists' || f.status === 409) return new ConflictError(message, { ...init, existing: problem?.meta?.existing });
  if (f.status === 429) return new RateLimitedError(message, { ...init, retryAfterMs: parseRetryAfter(header(f.headers, 'retry-after'), f.nowMs) });
  if (f.status >= 500) return new ServerError(message, init);
  switch (f.status) {
    case 400:
      return new BadRequestError(message, init);
    case 401:
      return new UnauthorizedError(message, init);
    case 403:
      return new ForbiddenError(message, init);
    case 404:
      return new NotFoundError(message, init);
    default:
      return new UnexpectedStatusError(message, init);
  }
}

/** Reads a problem body; fields of the wrong type are dropped, secrets are scrubbed. */
export function parseProblem(text: string, secrets?: SecretSet): Problem | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const r = redactDeep(raw, secrets) as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const problem: { -readonly [K in keyof Problem]: Problem[K] } = {};
  if (str(r.type)) problem.type = str(r.type);
  if (str(r.title)) problem.title = str(r.title);
  if (typeof r.status === 'number') problem.status = r.status;
  if (str(r.detail)) problem.detail = str(r.detail);
  if (r.meta && typeof r.meta === 'object' && !Array.isArray(r.meta)) problem.meta = r.meta as Record<string, unknown>;
  return problem;
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export function requestIdOf(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = header(headers, name);
    if (v) return v;
  }
  return undefined;
}

function header(headers: Readonly<Record<string, string | string[] | undefined>>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function defaultTitle(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    409: 'Conflict', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
    503: 'Service Unavailable', 504: 'Gateway Timeout',
  };
  return titles[status] ?? 'Error';
}
