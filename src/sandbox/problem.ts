import { InputError, TradeloopError } from '../core/errors.js';
import { SimError, type SimErrorKind } from '../sim/errors.js';

const PROBLEM_BASE = 'https://developer.paxos.com/docs/v2/problems/';

/** A problem+json body (RFC 7807 as the platform writes it). */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

/**
 * An HTTP failure with its problem body. Every refusal the sandbox sends is built here or in
 * `problemFromError`, so statuses, titles and `type` slugs stay consistent across routes.
 */
export class HttpProblem extends TradeloopError {
  constructor(readonly body: ProblemBody) {
    super(`HTTP_${body.status}`, body.detail ?? body.title);
  }
}

const GENERIC_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** A generic problem (`type` about:blank) with the standard title for its status. */
export function problem(status: number, detail: string, meta?: Readonly<Record<string, unknown>>): HttpProblem {
  return new HttpProblem({ type: 'about:blank', title: GENERIC_TITLES[status] ?? 'Error', status, detail, ...(meta ? { meta } : {}) });
}

/** 400 naming the offending field and the fix. */
export function badRequest(field: string, message: string): HttpProblem {
  return problem(400, `${field}: ${message}`, { field });
}

const SIM_PROBLEMS: Readonly<Record<SimErrorKind, { status: number; slug?: string; title: string }>> = {
  'not-found': { status: 404, title: 'Not Found' },
  'already-exists': { status: 409, slug: 'already-exists', title: 'Already Exists' },
  'insufficient-funds': { status: 403, slug: 'insufficient-funds', title: 'Insufficient Funds' },
  'notional-value-too-large': { status: 403, slug: 'notional-value-too-large', title: 'Notional Value Too Large' },
  forbidden: { status: 403, title: 'Forbidden' },
  'exceed-precision': { status: 400, slug: 'exceed-precision', title: 'Exceeds Maximum Precision Allowed' },
  expired: { status: 403, slug: 'expired', title: 'Expired' },
  rejected: { status: 403, slug: 'rejected', title: 'Rejected' },
  // The platform's catalog has no slug for a transfer over its limit: a plain 403 whose meta holds
  // the rule and the numbers (transfer_type, period_seconds, limit, remaining, amount).
  'transfer-limit-exceeded': { status: 403, title: 'Forbidden' },
  'exceed-max-withdraw-limit': { status: 400, slug: 'exceed-max-withdraw-limit', title: 'Withdrawal Amount Too Large' },
  conflict: { status: 409, title: 'Conflict' },
  'bad-request': { status: 400, title: 'Bad Request' },
};

/**
 * Maps any error to a problem body: InputError → 400 naming the field, SimError → the platform's
 * problem for that refusal (with `meta.existing` rendered by `renderExisting` for 409s), anything
 * else → 500 without internals.
 */
export function problemFromError(error: unknown, renderExisting: (e: SimError) => unknown): ProblemBody {
  if (error instanceof HttpProblem) return error.body;
  if (error instanceof InputError) return badRequest(error.field, error.message.slice(error.field.length + 2)).body;
  if (error instanceof SimError) {
    const p = SIM_PROBLEMS[error.kind];
    const meta = error.existing !== undefined ? { ...error.meta, existing: renderExisting(error) } : error.meta;
    return {
      type: p.slug ? PROBLEM_BASE + p.slug : 'about:blank',
      title: p.title,
      status: p.status,
      detail: error.message,
      ...(meta ? { meta } : {}),
    };
  }
  return {
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: 'the sandbox failed to handle the request; see its log',
  };
}
