import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import { LiveClock } from '../clock/live-clock.js';
import { Rng } from '../core/rng.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, isLoopbackHost } from '../config/environment.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { SecretSet } from '../log/redact.js';
import { beyondMethods } from './areas/beyond.js';
import { fundingMethods } from './areas/funding.js';
import { identityMethods } from './areas/identity.js';
import { tradingMethods } from './areas/trading.js';
import { UnsafeTargetError, ValidationError } from './errors.js';
import type { Budget } from './http/budgets.js';
import { CircuitBreaker, type VenueReachability } from './http/circuit-breaker.js';
import { Executor, type CallInput, type CallOptions, type RequestEvent, type ResponseEvent } from './http/executor.js';
import { RateLimiter } from './http/rate-limiter.js';
import { SharedRateLimiter, type BudgetStoreState, type RateLimitStore } from './http/shared-rate-limiter.js';
import { TokenManager } from './http/token-manager.js';
import { Transport } from './http/transport.js';
import type { OperationSpec } from './operation-spec.js';
import { OPERATIONS, findOperation } from './operations.js';
import { collect, paginate } from './pagination.js';

/** The scopes a trading bot needs (AUTH_ERRORS.md §3); override with `scopes`. */
export const TRADING_BOT_SCOPES: readonly string[] = [
  'exchange:read_order', 'exchange:write_order', 'exchange:read_quote', 'exchange:read_quote_execution',
  'exchange:write_quote_execution', 'exchange:historical_prices', 'funding:read_profile', 'funding:write_profile',
  'transfer:read_transfer', 'transfer:read_transfer_limit', 'transfer:write_internal_transfer',
];

export interface ApiClientOptions {
  /** Base URL ending in `/v2`. */
  readonly apiUrl: string;
  readonly tokenUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** True when the credential is the local development one (then only loopback hosts are allowed). */
  readonly localCredential?: boolean;
  readonly scopes?: readonly string[];
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Jitter of backoff delays. */
  readonly rng?: Rng;
  /** ref_id for writes that come without one (default: random UUIDs, unique across restarts). */
  readonly makeRefId?: () => string;
  /** Shared with the logger so that the secret and live tokens are masked everywhere. */
  readonly secrets?: SecretSet;
  readonly connectTimeoutMs?: number;
  readonly headersTimeoutMs?: number;
  readonly bodyTimeoutMs?: number;
  readonly maxRetries?: number;
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Pause of every budget after a 429 without Retry-After (default 300 000: the platform's block). */
  readonly rateLimitPenaltyMs?: number;
  /** Retries that would wait longer fail at once (default 10 minutes). */
  readonly maxRetryWaitMs?: number;
  /** Connection failures in a row that open the venue's circuit breaker (default 5). */
  readonly breakerFailures?: number;
  /** While the breaker is open, at most one probe per this many ms (default 1000). */
  readonly breakerProbeMs?: number;
  /** Renew the token this long before expiry (default 60 s, at most a tenth of its lifetime). */
  readonly refreshAheadMs?: number;
  readonly budgets?: readonly Budget[];
  readonly defaultBudget?: Budget;
  readonly tokenBudget?: Budget;
  /** Fraction of each platform rate limit to use (default 0.8). */
  readonly rateLimitSafety?: number;
  /** A budget shared with other bot processes (`api.rate_limit_store`); absent: this process's own. */
  readonly rateLimitStore?: RateLimitStore;
  readonly onRequest?: (e: RequestEvent) => void;
  readonly onResponse?: (e: ResponseEvent) => void;
}

/** The generic core every typed method is built on. */
export interface ApiCore {
  /** Calls any operation by its operationId with wire-named path, query and body. */
  call<T = unknown>(operationId: string, input?: CallInput, opts?: CallOptions): Promise<T>;
  /** Every item of a paged list, fetched page by page. */
  paginate<T = unknown>(operationId: string, input?: CallInput, opts?: CallOptions): AsyncGenerator<T, void, undefined>;
  /** Every item of a paged list in one array. */
  listAll<T = unknown>(operationId: string, input?: CallInput, opts?: CallOptions): Promise<T[]>;
  readonly operations: readonly OperationSpec[];
  readonly limiter: RateLimiter;
  /** Token requests sent so far. */
  tokenRequests(): number;
  /**
   * The scopes the platform granted (fetching a token if needed); undefined when the token
   * endpoint did not say or there is no credential. The runner checks them before trading.
   */
  grantedScopes(): Promise<ReadonlySet<string> | undefined>;
  /** Whether the venue is reachable, as the circuit breaker sees it (panel, stream health). */
  venueReachability(): VenueReachability;
  /** The shared request budget's state (`api.rate_limit_store`); undefined when the budget is this process's own. */
  budgetStore(): BudgetStoreState | undefined;
  /** Closes the connection pool. */
  close(): Promise<void>;
}

export type ApiClient = ApiCore & ReturnType<typeof tradingMethods> & ReturnType<typeof fundingMethods> & ReturnType<typeof identityMethods> & ReturnType<typeof beyondMethods>;

/**
 * Builds the platform client: one connection pool, one token cache, one rate limiter and one
 * retry policy shared by every call. Refuses plain http and the local development credential for
 * any host but loopback, so a misconfiguration cannot leak a secret.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const apiUrl = checkTarget('apiUrl', options.apiUrl, options);
  const tokenUrl = options.tokenUrl === undefined ? undefined : checkTarget('tokenUrl', options.tokenUrl, options);
  const clock = options.clock ?? new LiveClock();
  const logger = (options.logger ?? silentLogger()).child({ component: 'api' });
  const secrets = options.secrets ?? new SecretSet();
  const transport = new Transport({
    connectMs: options.connectTimeoutMs ?? 5_000,
    headersMs: options.headersTimeoutMs ?? 10_000,
    bodyMs: options.bodyTimeoutMs ?? 10_000,
  });
  const limiterOptions = { clock, budgets: options.budgets, defaultBudget: options.defaultBudget, tokenBudget: options.tokenBudget, safety: options.rateLimitSafety };
  const limiter = options.rateLimitStore ? new SharedRateLimiter({ ...limiterOptions, store: options.rateLimitStore, logger }) : new RateLimiter(limiterOptions);
  const scopes = options.scopes ?? TRADING_BOT_SCOPES;
  const userAgent = 'tradeloop/0.1';
  const tokens = tokenUrl !== undefined && options.clientId !== undefined && options.clientSecret !== undefined
    ? new TokenManager({ tokenUrl, clientId: options.clientId, clientSecret: options.clientSecret, scopes, clock, transport, limiter, secrets, logger, refreshAheadMs: options.refreshAheadMs ?? 60_000, userAgent })
    : undefined;
  const breaker = new CircuitBreaker({ failures: options.breakerFailures ?? 5, probeIntervalMs: options.breakerProbeMs ?? 1_000 }, clock, logger);
  const executor = new Executor({
    breaker,
    apiUrl, clock, logger, transport, limiter, tokens, secrets, userAgent, findOperation,
    rng: options.rng ?? new Rng('tradeloop-api-jitter'),
    requestedScopes: new Set(scopes),
    makeRefId: options.makeRefId ?? randomUUID,
    retry: {
      maxRetries: options.maxRetries ?? 4,
      baseBackoffMs: options.baseBackoffMs ?? 250,
      maxBackoffMs: options.maxBackoffMs ?? 10_000,
      rateLimitPenaltyMs: options.rateLimitPenaltyMs ?? 300_000,
      maxRetryWaitMs: options.maxRetryWaitMs ?? 600_000,
    },
    onRequest: options.onRequest,
    onResponse: options.onResponse,
  });
  const spec = (id: string): OperationSpec => {
    const found = findOperation(id);
    if (!found) throw new ValidationError(id, 'operationId', `unknown operation ${JSON.stringify(id)}: run \`tradeloop api --list\` for the names`);
    return found;
  };
  // straight into the executor (its checks and send are in an async function, so they reject, never
  // throw): no microtask hop for the request to wait behind whatever else is queued
  const call = <T>(id: string, input?: CallInput, opts?: CallOptions): Promise<T> => {
    let found: OperationSpec;
    try {
      found = spec(id);
    } catch (e) {
      return Promise.reject(e);
    }
    return executor.call(found, input, opts) as Promise<T>;
  };
  const core: ApiCore = {
    call,
    paginate: <T>(id: string, input?: CallInput, opts?: CallOptions) => paginate<T>((s, i, o) => executor.call(s, i, o), spec(id), input, opts),
    listAll: <T>(id: string, input?: CallInput, opts?: CallOptions) => collect(paginate<T>((s, i, o) => executor.call(s, i, o), spec(id), input, opts)),
    operations: OPERATIONS,
    limiter,
    tokenRequests: () => tokens?.requestCount() ?? 0,
    grantedScopes: async () => (tokens ? (await tokens.get()).scopes : undefined),
    venueReachability: () => breaker.state(),
    budgetStore: () => (limiter instanceof SharedRateLimiter ? limiter.storeState() : undefined),
    close: async () => {
      await transport.close();
      await options.rateLimitStore?.close();
    },
  };
  return Object.assign(core, tradingMethods(call), fundingMethods(call), identityMethods(call), beyondMethods(call));
}

function checkTarget(field: string, url: string, options: ApiClientOptions): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeTargetError(`${field} ${JSON.stringify(url)} is not a URL: give e.g. https://api.sandbox.paxos.com/v2`);
  }
  const loopback = isLoopbackHost(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new UnsafeTargetError(`${field} must use https for ${parsed.hostname} (plain http is allowed only for 127.0.0.1/localhost)`);
  }
  const local = options.localCredential === true || options.clientId === LOCAL_CLIENT_ID || options.clientSecret === LOCAL_CLIENT_SECRET;
  if (local && !loopback) {
    throw new UnsafeTargetError(`${field}: the local development credential is sent only to 127.0.0.1/localhost, not to ${parsed.hostname}: set TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET`);
  }
  return url.replace(/\/+$/, '');
}
