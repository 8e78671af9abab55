import { createRequire } from 'node:module';
import type { Pool as PoolType, errors as UndiciErrors } from 'undici';
import { AbortedError, TimeoutError, TransportError, type ApiError } from '../errors.js';

// undici's pool, its request call and its error classes from their own modules, not its index: the
// index loads the whole library (mock agents, caches, WebSocket, fetch), about three times the
// start-up time of these, and `tradeloop run` waits for it before its first request. The same code the
// index re-exports (it attaches `request` to every dispatcher; here it is called on the pool).
const load = createRequire(import.meta.url);
const Pool = load('undici/lib/dispatcher/pool.js') as typeof PoolType;
const poolRequest = load('undici/lib/api/api-request.js') as PoolType['request'];
const undiciErrors = load('undici/lib/core/errors.js') as typeof UndiciErrors;

/** Transport timeouts (milliseconds): TCP/TLS connect, waiting for headers, between body chunks. */
export interface TransportTimeouts {
  readonly connectMs: number;
  readonly headersMs: number;
  readonly bodyMs: number;
}

export interface RawRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * HTTP on an undici keep-alive pool. Turns network failures into typed errors that say whether the
 * request can have reached the server (`TransportError.sent`, `TimeoutError.phase`), which is what
 * the retry policy needs to keep writes safe.
 */
export class Transport {
  /** One keep-alive pool per origin (the API host and the token host). */
  private readonly pools = new Map<string, PoolType>();

  constructor(
    private readonly timeouts: TransportTimeouts,
    private readonly connections = 16,
  ) {}

  /** Sends one request and reads the whole body as text. */
  async send(operation: string, req: RawRequest): Promise<RawResponse> {
    const cut = req.url.indexOf('/', req.url.indexOf('//') + 2);
    const origin = cut < 0 ? req.url : req.url.slice(0, cut);
    const path = cut < 0 ? '/' : req.url.slice(cut);
    try {
      const res = await poolRequest.call(this.pool(origin), {
        path,
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      throw mapTransportError(operation, err, req.signal);
    }
  }

  /** Closes every pool's sockets. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  private pool(origin: string): PoolType {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connect: { timeout: this.timeouts.connectMs },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
        keepAliveTimeout: 10_000,
        connections: this.connections,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT']);

/** Maps an undici/Node network error to the client's typed errors (no URL or header in messages). */
export function mapTransportError(operation: string, err: unknown, signal?: AbortSignal): ApiError {
  if (signal?.aborted) return new AbortedError(operation, signal.reason);
  const code = errorCode(err);
  if (err instanceof undiciErrors.ConnectTimeoutError || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(`${operation}: connect timed out`, { operation, phase: 'connect', cause: err });
  }
  if (err instanceof undiciErrors.HeadersTimeoutError || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TimeoutError(`${operation}: no response headers in time (outcome unknown)`, { operation, phase: 'headers', cause: err });
  }
  if (err instanceof undiciErrors.BodyTimeoutError || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(`${operation}: response body stalled (outcome unknown)`, { operation, phase: 'body', cause: err });
  }
  if (code === 'UND_ERR_ABORTED' || (err instanceof Error && err.name === 'AbortError')) return new AbortedError(operation, err);
  const sent = code === undefined || !NOT_SENT_CODES.has(code);
  const what = code ?? (err instanceof Error ? err.name : 'error');
  return new TransportError(`${operation}: network failure (${what})${sent ? ', outcome unknown' : ', request not sent'}`, { operation, sent, cause: err });
}

function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
