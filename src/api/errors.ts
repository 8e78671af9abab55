import { InputError, TradeloopError } from '../core/errors.js';

/**
 * The client's typed failures. Callers branch on `code` (stable) or `instanceof`, never on message
 * text. Messages are built from the operation, the status and the problem's title/detail after
 * secret scrubbing, so no credential or token can reach a log line or `String(err)`.
 */

/** RFC 7807 problem fields as the platform sends them (every field optional). */
export interface Problem {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface ApiErrorInit {
  readonly operation: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly problem?: Problem;
  readonly cause?: unknown;
}

/** Base of every failure of a platform call; carries the operation and what the server said. */
export class ApiError extends TradeloopError {
  readonly operation: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly problem: Problem | undefined;
  /** Last path segment of `problem.type` ("insufficient-funds"), or undefined for about:blank. */
  readonly slug: string | undefined;

  constructor(code: string, message: string, init: ApiErrorInit) {
    super(code, message, init.cause === undefined ? undefined : { cause: init.cause });
    this.operation = init.operation;
    this.status = init.status;
    this.requestId = init.requestId;
    this.problem = init.problem;
    this.slug = problemSlug(init.problem?.type);
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      operation: this.operation,
      status: this.status,
      requestId: this.requestId,
      problem: this.problem,
    };
  }
}

/** 400: the server refused the input (invalid field, precision, minimum …). */
export class BadRequestError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('BAD_REQUEST', message, init);
  }
}

/** 401: missing or invalid token (the client refreshes once before raising this). */
export class UnauthorizedError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('UNAUTHORIZED', message, init);
  }
}

/** 403: missing scope or a business refusal (see `slug`: insufficient-funds, expired …). */
export class ForbiddenError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('FORBIDDEN', message, init);
  }
}

/** 404: unknown resource. */
export class NotFoundError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('NOT_FOUND', message, init);
  }
}

/** 409: idempotency or state conflict; `existing` is `meta.existing` when the server sent it. */
export class ConflictError extends ApiError {
  readonly existing: unknown;

  constructor(message: string, init: ApiErrorInit & { existing?: unknown }, code = 'CONFLICT') {
    super(code, message, init);
    this.existing = init.existing;
  }
}

/** 429: the platform throttled this address; `retryAfterMs` is the wait it asked for (if any). */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;

  constructor(message: string, init: ApiErrorInit & { retryAfterMs?: number }) {
    super('RATE_LIMITED', message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx: server side failure; for writes the outcome is unknown. */
export class ServerError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('SERVER_ERROR', message, init);
  }
}

/** Any other unexpected HTTP status (405, 3xx …). */
export class UnexpectedStatusError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('UNEXPECTED_STATUS', message, init);
  }
}

/** No response in time. `phase` says whether the request can have reached the server. */
export class TimeoutError extends ApiError {
  readonly phase: 'connect' | 'headers' | 'body';

  constructor(message: string, init: ApiErrorInit & { phase: 'connect' | 'headers' | 'body' }) {
    super('TIMEOUT', message, init);
    this.phase = init.phase;
  }
}

/** Network failure. `sent` is false only when the request certainly never left (connect refused). */
export class TransportError extends ApiError {
  readonly sent: boolean;

  constructor(message: string, init: ApiErrorInit & { sent: boolean }) {
    super('TRANSPORT', message, init);
    this.sent = init.sent;
  }
}

/**
 * The venue's circuit breaker is open: after several connection failures in a row the client sends
 * nothing but one probe a second until the venue answers. The request was never sent, so a write
 * failing with this certainly did not run and a read simply did not happen.
 */
export class VenueUnreachableError extends ApiError {
  /** Epoch ms at which the venue became unreachable (the breaker opened). */
  readonly since: number;

  constructor(operation: string, since: number, lastError?: string) {
    super(
      'VENUE_UNREACHABLE',
      `${operation} not sent: venue unreachable since ${new Date(since).toISOString()}${lastError ? ` (${lastError})` : ''}; retried when a probe finds it again`,
      { operation },
    );
    this.since = since;
  }
}

/** The server answered 2xx with a body the client cannot use (not JSON, wrong shape). */
export class MalformedResponseError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('MALFORMED_RESPONSE', message, init);
  }
}

/** The token endpoint refused the credential or answered with something unusable. */
export class AuthError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super('AUTH_FAILED', message, init);
  }
}

/** The token does not carry the scope an operation needs; raised before any request. */
export class MissingScopeError extends ApiError {
  readonly scope: string;

  constructor(operation: string, scope: string, granted: readonly string[]) {
    super(
      'SCOPE_MISSING',
      `${operation} needs the OAuth scope "${scope}", which the token does not carry (granted: ${granted.join(' ') || 'none'}): add it to api.scopes and to the credential`,
      { operation },
    );
    this.scope = scope;
  }
}

/** The caller's AbortSignal fired; never retried. */
export class AbortedError extends ApiError {
  constructor(operation: string, cause?: unknown) {
    super('ABORTED', `${operation} was aborted by the caller`, { operation, cause });
  }
}

/** Client-side validation failure: names the field and the fix; no request was made. */
export class ValidationError extends InputError {
  readonly operation: string;

  constructor(operation: string, field: string, message: string) {
    super(field, `${message} (${operation})`);
    this.operation = operation;
  }
}

/** The client refuses a configuration that would leak the credential or send it in clear. */
export class UnsafeTargetError extends TradeloopError {
  constructor(message: string) {
    super('UNSAFE_TARGET', message);
  }
}

/** "https://…/problems/insufficient-funds" → "insufficient-funds"; about:blank → undefined. */
export function problemSlug(type: string | undefined): string | undefined {
  if (type === undefined || type === '' || type === 'about:blank') return undefined;
  const parts = type.split('/').filter((p) => p !== '');
  return parts[parts.length - 1]?.toLowerCase();
}

/** True when the request may have reached the server, so a write's outcome is unknown. */
export function outcomeUnknown(err: unknown): boolean {
  if (err instanceof ServerError) return true;
  if (err instanceof TimeoutError) return err.phase !== 'connect';
  if (err instanceof TransportError) return err.sent;
  return false;
}
