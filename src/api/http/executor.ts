import type { Clock } from '../../clock/clock.js';
import type { Rng } from '../../core/rng.js';
import type { Logger } from '../../log/logger.js';
import type { SecretSet } from '../../log/redact.js';
import { AbortedError, ApiError, AuthError, ConflictError, MissingScopeError, RateLimitedError, ValidationError, VenueUnreachableError, outcomeUnknown } from '../errors.js';
import type { OperationSpec, Priority } from '../operation-spec.js';
import { validateBody } from '../validate/body.js';
import { fillPath, queryString, type QueryInput } from '../validate/query.js';
import { connectionFailure, type CircuitBreaker } from './circuit-breaker.js';
import { mapHttpError, requestIdOf } from './error-mapper.js';
import type { RateLimiter } from './rate-limiter.js';
import { pickByRefId, refIdMismatch, withRefId } from './ref-id.js';
import { readResponse } from './responses.js';
import { decideRetry, type RetrySettings } from './retry-policy.js';
import type { TokenManager } from './token-manager.js';
import type { Transport } from './transport.js';

/** Input of one call: path parameters, query (wire names), JSON body. */
export interface CallInput {
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters by wire name (a typed query interface or a plain record). */
  readonly query?: QueryInput | object;
  readonly body?: unknown;
}

/** Per-call options. `priority` overrides the operation's default when the budget is tight. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly priority?: Priority;
  /**
   * The caller built the body itself from typed values it has already checked against the same
   * rules (RestVenue's orders: the risk gate ruled the order, RestVenue checks every amount's wire
   * form): the client does not walk its body rules again on the order's hot path. Bodies from
   * anyone else (`api.call`, the typed methods without this flag) are always checked.
   */
  readonly bodyChecked?: boolean;
}

/** Seen by `onRequest` before every attempt (metrics, recording). */
export interface RequestEvent {
  readonly operation: string;
  readonly method: string;
  /** Filled path relative to the base URL, without the query. */
  readonly path: string;
  readonly query: string;
  readonly attempt: number;
  readonly priority: Priority;
  readonly atMs: number;
}

/** Seen by `onResponse` after every attempt; `error` is the typed error's code when it failed. */
export interface ResponseEvent extends RequestEvent {
  readonly status: number | undefined;
  readonly durationMs: number;
  readonly requestId: string | undefined;
  readonly error: string | undefined;
}

export interface ExecutorDeps {
  readonly apiUrl: string;
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly transport: Transport;
  readonly limiter: RateLimiter;
  readonly tokens: TokenManager | undefined;
  readonly requestedScopes: ReadonlySet<string>;
  readonly secrets: SecretSet;
  readonly retry: RetrySettings;
  readonly makeRefId: () => string;
  readonly userAgent: string;
  /** The venue's circuit breaker (absent: every attempt is sent). */
  readonly breaker?: CircuitBreaker;
  readonly findOperation: (id: string) => OperationSpec | undefined;
  readonly onRequest?: (e: RequestEvent) => void;
  readonly onResponse?: (e: ResponseEvent) => void;
}

interface Prepared {
  readonly path: string;
  readonly query: string;
  readonly body: Record<string, unknown> | undefined;
  readonly refId: string | undefined;
  readonly pathParams: Readonly<Record<string, string>>;
}

/**
 * Runs calls: validation, token, rate budget, transport, error mapping, and the retry policy with
 * ref_id resolution — the single place where a request's fate is decided.
 */
export class Executor {
  constructor(private readonly d: ExecutorDeps) {}

  async call(spec: OperationSpec, input: CallInput = {}, opts: CallOptions = {}): Promise<unknown> {
    const p = this.prepare(spec, input, opts.bodyChecked === true);
    const state = { retries: 0, refreshedToken: false, hasRefId: p.refId !== undefined, token: undefined as string | undefined };
    // the first attempt of a write that may have reached the venue: it decides how the call ends
    let unknown: unknown;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(spec, p, opts, attempt, state);
      } catch (err) {
        if (err instanceof ConflictError && p.refId !== undefined) return this.onOwnConflict(spec, p, err, opts);
        if (err instanceof RateLimitedError) this.d.limiter.pause(err.retryAfterMs ?? this.d.retry.rateLimitPenaltyMs);
        if (unknown === undefined && spec.method !== 'GET' && outcomeUnknown(err)) unknown = err;
        if (this.d.breaker?.isOpen() && connectionFailure(err)) throw keptUnknown(unknown, this.whileOpen(spec, err));
        const d = decideRetry(spec, err, state, this.d.retry, this.d.rng);
        if (d.kind === 'fail') throw keptUnknown(unknown, err);
        this.d.logger.warn({ operation: spec.id, code: (err as ApiError).code, attempt, decision: d.kind }, 'retrying request');
        if (d.kind === 'refresh-token') {
          state.refreshedToken = true;
          if (state.token !== undefined) this.d.tokens?.invalidate(state.token);
          continue;
        }
        state.retries++;
        if (d.kind === 'rate-limited') continue;
        await this.sleep(spec, d.delayMs, opts.signal);
        if (d.kind === 'resolve-ref-id') {
          const found = await this.lookupByRefId(spec, p, opts).catch((e: unknown) => Promise.reject(keptUnknown(unknown ?? err, e)));
          if (found !== undefined) return this.accept(spec, p, found);
        }
      }
    }
  }

  private prepare(spec: OperationSpec, input: CallInput, bodyChecked = false): Prepared {
    const pathParams = input.path ?? {};
    const path = fillPath(spec, pathParams);
    const query = queryString(spec, input.query as QueryInput | undefined);
    if (spec.body === 'none' && input.body !== undefined) throw new ValidationError(spec.id, 'body', `${spec.id} takes no body: remove it`);
    if (spec.body === 'required' && input.body === undefined) throw new ValidationError(spec.id, 'body', 'a JSON body is required');
    if (input.body === undefined) return { path, query, body: undefined, refId: undefined, pathParams };
    if (!bodyChecked) validateBody(spec.id, input.body);
    const body = input.body as Record<string, unknown>;
    if (!spec.refId) return { path, query, body, refId: undefined, pathParams };
    const withId = withRefId(spec.refId, body, this.d.makeRefId);
    return { path, query, body: withId.body, refId: withId.refId, pathParams };
  }

  /**
   * One attempt through the venue's breaker: refused at once while it is open (unless it is the
   * probe), and its outcome (an answer or a connection failure) reported back to it.
   */
  private async attempt(spec: OperationSpec, p: Prepared, opts: CallOptions, attempt: number, state: { token: string | undefined }): Promise<unknown> {
    const breaker = this.d.breaker;
    if (!breaker) return this.send(spec, p, opts, attempt, state);
    const ticket = breaker.admit(spec.id, spec.method);
    const reached = { venue: false };
    try {
      const value = await this.send(spec, p, opts, attempt, state, reached);
      breaker.settle(ticket, undefined);
      return value;
    } catch (err) {
      // a failure before the request left (the token host, the budget) says nothing of the venue
      breaker.settle(ticket, reached.venue ? err : undefined, !reached.venue);
      throw err;
    }
  }

  /**
   * A connection failure once the breaker is open ends the call without a retry, as VENUE_UNREACHABLE
   * (the caller keeps an earlier unknown outcome of a write instead, see `keepUnknown`).
   */
  private whileOpen(spec: OperationSpec, err: ApiError): ApiError {
    return new VenueUnreachableError(spec.id, this.d.breaker?.state().unreachableSince ?? this.d.clock.now(), err.message);
  }

  private async send(spec: OperationSpec, p: Prepared, opts: CallOptions, attempt: number, state: { token: string | undefined }, reached = { venue: false }): Promise<unknown> {
    const priority = opts.priority ?? spec.priority;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.d.userAgent };
    try {
      // a good cached token and room in the budget go on at once; otherwise wait for them
      if (spec.scope !== undefined) {
        headers.authorization = `Bearer ${this.cachedToken(spec, state) ?? (await this.token(spec, opts.signal, state))}`;
      }
      if (opts.signal?.aborted || !this.d.limiter.tryAcquire(p.path)) await this.d.limiter.acquire(p.path, priority, opts.signal);
    } catch (err) {
      throw opts.signal?.aborted ? new AbortedError(spec.id, err) : err;
    }
    if (p.body !== undefined) headers['content-type'] = 'application/json';
    const event: RequestEvent = { operation: spec.id, method: spec.method, path: p.path, query: p.query, attempt, priority, atMs: this.d.clock.now() };
    this.observe(() => this.d.onRequest?.(event));
    let status: number | undefined;
    let requestId: string | undefined;
    try {
      const url = `${this.d.apiUrl}${p.path}${p.query ? `?${p.query}` : ''}`;
      const body = p.body === undefined ? undefined : JSON.stringify(p.body);
      reached.venue = true;
      const res = await this.d.transport.send(spec.id, { method: spec.method, url, headers, body, signal: opts.signal });
      status = res.status;
      requestId = requestIdOf(res.headers);
      if (res.status >= 200 && res.status < 300) {
        const value = readResponse(spec, res.text, requestId);
        this.emitResponse(event, status, requestId, undefined);
        return value;
      }
      throw mapHttpError({ operation: spec.id, status: res.status, headers: res.headers, text: res.text, nowMs: this.d.clock.now(), secrets: this.d.secrets });
    } catch (err) {
      this.emitResponse(event, status, requestId, err instanceof ApiError ? err.code : 'ERROR');
      throw err;
    }
  }

  /** The cached token when it is good and grants the scope (else undefined: `token` decides). */
  private cachedToken(spec: OperationSpec, state: { token: string | undefined }): string | undefined {
    const scope = spec.scope as string;
    if (!this.d.requestedScopes.has(scope)) return undefined;
    const token = this.d.tokens?.peek();
    if (token === undefined || !(token.scopes ?? this.d.requestedScopes).has(scope)) return undefined;
    state.token = token.value;
    return token.value;
  }

  private async token(spec: OperationSpec, signal: AbortSignal | undefined, state: { token: string | undefined }): Promise<string> {
    const scope = spec.scope as string;
    if (!this.d.tokens) {
      throw new AuthError(`${spec.id} needs a credential: set TRADELOOP_CLIENT_ID and TRADELOOP_CLIENT_SECRET (and a token URL)`, { operation: spec.id });
    }
    if (!this.d.requestedScopes.has(scope)) throw new MissingScopeError(spec.id, scope, [...this.d.requestedScopes]);
    const token = await this.d.tokens.get(signal);
    const granted = token.scopes ?? this.d.requestedScopes;
    if (!granted.has(scope)) throw new MissingScopeError(spec.id, scope, [...granted]);
    state.token = token.value;
    return token.value;
  }

  /** A 409 on a write with our ref_id: the existing record is the result when it matches. */
  private async onOwnConflict(spec: OperationSpec, p: Prepared, err: ConflictError, opts: CallOptions): Promise<unknown> {
    let existing = err.existing;
    if (existing === undefined) existing = await this.lookupByRefId(spec, p, opts).catch((e: unknown) => Promise.reject(keptUnknown(err, e)));
    if (existing === undefined) throw err;
    return this.accept(spec, p, existing, err);
  }

  private accept(spec: OperationSpec, p: Prepared, record: unknown, conflict?: ConflictError): unknown {
    const field = refIdMismatch(p.body ?? {}, record, p.pathParams);
    if (field !== undefined) {
      throw new ConflictError(
        `${spec.id}: ref_id ${JSON.stringify(p.refId)} already names a different record (field ${field} differs): use a new ref_id`,
        { operation: spec.id, status: conflict?.status, requestId: conflict?.requestId, problem: conflict?.problem, existing: record },
        'REF_ID_REUSED',
      );
    }
    this.d.logger.info({ operation: spec.id, refId: p.refId }, 'write resolved by ref_id: the record already exists');
    return record;
  }

  /** Looks a write's record up by ref_id; undefined when not found or the operation has no lookup. */
  private async lookupByRefId(spec: OperationSpec, p: Prepared, opts: CallOptions): Promise<unknown> {
    const lookup = spec.refId?.lookup;
    if (!lookup || lookup.kind !== 'list' || p.refId === undefined) return undefined;
    const list = this.d.findOperation(lookup.operation);
    if (!list) return undefined;
    const query: Record<string, string | string[]> = {};
    query[lookup.filter] = list.query[lookup.filter]?.kind === 'array' ? [p.refId] : p.refId;
    for (const [from, to] of Object.entries(lookup.scopeBy ?? {})) {
      const v = p.pathParams[from] ?? p.body?.[from];
      if (typeof v === 'string') query[to] = v;
    }
    const page = (await this.call(list, { query }, { signal: opts.signal, priority: opts.priority ?? spec.priority })) as { items: unknown[] };
    return pickByRefId(page.items, p.refId, lookup.match);
  }

  private async sleep(spec: OperationSpec, ms: number, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.d.clock.sleep(ms, signal);
    } catch (err) {
      throw new AbortedError(spec.id, err);
    }
  }

  private emitResponse(event: RequestEvent, status: number | undefined, requestId: string | undefined, error: string | undefined): void {
    const durationMs = this.d.clock.now() - event.atMs;
    this.d.logger.debug({ operation: event.operation, status, durationMs, attempt: event.attempt, requestId, error }, 'api response');
    this.observe(() => this.d.onResponse?.({ ...event, status, durationMs, requestId, error }));
  }

  private observe(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.d.logger.warn({ err }, 'an api observer threw; ignored');
    }
  }
}

/**
 * `e`, unless it is VENUE_UNREACHABLE (the open breaker refused a ref_id lookup or a resend)
 * after an attempt of the same write may have reached the venue: then that attempt's error (its
 * unknown outcome, or the 409), since VENUE_UNREACHABLE tells the caller the write
 * certainly did not run, and a write closed as not run would not be looked for if it lands later.
 */
function keptUnknown(original: unknown, e: unknown): unknown {
  return e instanceof VenueUnreachableError && original !== undefined ? original : e;
}
