/**
 * The platform's request budgets (AUTH_ERRORS.md §6, from the public rate-limit page): average
 * requests per second per endpoint pattern and source address over a 5-minute window. Exceeding one
 * blocks the whole address for 5 minutes, so the client throttles itself below these numbers.
 * Patterns are relative to the `/v2` base URL; `*` matches one path segment and a pattern also
 * covers deeper paths (`/profiles/*\/quote-executions` covers `/profiles/p/quote-executions/q`).
 */
export interface Budget {
  readonly name: string;
  readonly pattern: string;
  /** The platform's average limit (requests per second). */
  readonly ratePerSec: number;
  /** Requests that may go at once after a quiet period (the platform averages over minutes). */
  readonly burst: number;
}

export const PLATFORM_BUDGETS: readonly Budget[] = [
  { name: 'order-book', pattern: '/markets/*/order-book', ratePerSec: 10, burst: 10 },
  { name: 'recent-executions', pattern: '/markets/*/recent-executions', ratePerSec: 10, burst: 10 },
  { name: 'quote-executions', pattern: '/profiles/*/quote-executions', ratePerSec: 10, burst: 10 },
  { name: 'identities', pattern: '/identity/identities', ratePerSec: 10, burst: 10 },
  { name: 'internal-transfers', pattern: '/transfer/internal', ratePerSec: 20, burst: 20 },
  { name: 'crypto-withdrawals', pattern: '/transfer/crypto-withdrawals', ratePerSec: 20, burst: 20 },
];

/** Every other endpoint. */
export const DEFAULT_BUDGET: Budget = { name: 'default', pattern: '*', ratePerSec: 50, burst: 50 };

/** The token endpoint: about 1 request per second. */
export const TOKEN_BUDGET: Budget = { name: 'token', pattern: '/oauth2/token', ratePerSec: 1, burst: 2 };

/** Fraction of each limit the client allows itself (stays below the platform's averages). */
export const DEFAULT_SAFETY = 0.8;

/** The budget that governs `path` (first matching pattern, else the default). */
export function budgetFor(path: string, budgets: readonly Budget[] = PLATFORM_BUDGETS, fallback: Budget = DEFAULT_BUDGET): Budget {
  const segments = path.split('?')[0]!.split('/').filter((s) => s !== '');
  const patterns = patternsOf(budgets);
  for (let k = 0; k < budgets.length; k++) {
    const pat = patterns[k]!.parts;
    if (pat.length <= segments.length && pat.every((p, i) => p === '*' || p === segments[i])) return budgets[k]!;
  }
  return fallback;
}

/** Each budget's pattern cut into segments, once per list of budgets (every request looks one up). */
const PATTERNS = new WeakMap<readonly Budget[], ReadonlyArray<{ readonly pattern: string; readonly parts: readonly string[] }>>();

function patternsOf(budgets: readonly Budget[]): ReadonlyArray<{ readonly pattern: string; readonly parts: readonly string[] }> {
  let out = PATTERNS.get(budgets);
  if (out === undefined || out.length !== budgets.length || out.some((p, k) => p.pattern !== budgets[k]!.pattern)) {
    out = budgets.map((b) => ({ pattern: b.pattern, parts: b.pattern.split('/').filter((s) => s !== '') }));
    PATTERNS.set(budgets, out);
  }
  return out;
}
