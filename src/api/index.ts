/**
 * The typed client of the platform API: `createApiClient`, one typed method per operation, the
 * generic `call`/`paginate`/`listAll`, the operations table, typed errors and the wire types.
 */
export * from './client.js';
export * from './errors.js';
export * from './operation-spec.js';
export { OPERATIONS, allScopes, findOperation } from './operations.js';
export type { CallInput, CallOptions, RequestEvent, ResponseEvent } from './http/executor.js';
export { RateLimiter } from './http/rate-limiter.js';
export { CircuitBreaker, connectionFailure, type BreakerSettings, type VenueReachability } from './http/circuit-breaker.js';
export { PLATFORM_BUDGETS, DEFAULT_BUDGET, TOKEN_BUDGET, budgetFor, type Budget } from './http/budgets.js';
export { mapHttpError, parseProblem, parseRetryAfter } from './http/error-mapper.js';
export { encodeQuery, type QueryInput, type QueryValue } from './validate/query.js';
export { validateBody } from './validate/body.js';
export { createApiClientFromConfig } from './from-config.js';
export type * from './types/common.js';
export type * from './types/trading.js';
export type * from './types/funding.js';
export type * from './types/conversions.js';
export type * from './types/identity.js';
export type * from './types/beyond.js';
