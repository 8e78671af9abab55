import {
  ApiError,
  ConflictError,
  NotFoundError,
  VenueUnreachableError,
  outcomeUnknown,
  type ApiClient,
  type CreateOrderRequest,
  type Execution,
  type MarketDetails,
  type Order,
} from '../api/index.js';
import { WIRE_DECIMAL, type Instrument, type MarketSymbol } from '../core/index.js';
import { instrumentOf } from '../platform/instruments.js';
import {
  REF_ID_REUSED,
  VENUE_UNREACHABLE,
  TRANSFER_INTENT_TYPE,
  VenueReadError,
  VenueNotFoundError,
  VenueRejectedError,
  VenueUnknownOutcomeError,
  type ExecuteQuoteRequest,
  type PlaceOrderRequest,
  type TransferLimitRow,
  type TransferRequest,
  type Venue,
  type VenueBalance,
  type VenueFill,
  type VenueOrder,
  type VenueQuote,
  type VenueQuoteExecution,
  type VenueTransfer,
} from './venue.js';
import {
  balanceFromWireRecord,
  fillFromWire,
  orderFromWire,
  quoteExecutionFromWire,
  quoteFromWire,
  transferFromWire,
} from './wire-records.js';

/**
 * The Venue over HTTP: the typed client against the local sandbox or the real one. Writes go out
 * with `ref_id = intent id` at order priority; the client's own retry policy already resolves lost
 * responses by ref_id, so an error that still says "outcome unknown" becomes VenueUnknownOutcomeError.
 */
export class RestVenue implements Venue {
  readonly name = 'rest';
  private readonly write = { priority: 'high' as const };
  private readonly checkedWrite = { priority: 'high' as const, bodyChecked: true };

  constructor(
    private readonly api: ApiClient,
    readonly profileId: string,
  ) {}

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const body: Record<string, string> = { ref_id: req.refId, market: req.market, side: req.side, type: req.type };
    if (req.baseAmount !== undefined) body.base_amount = req.baseAmount;
    if (req.quoteAmount !== undefined) body.quote_amount = req.quoteAmount;
    if (req.price !== undefined) body.price = req.price;
    if (req.stopPrice !== undefined) body.stop_price = req.stopPrice;
    if (req.timeInForce !== undefined) body.time_in_force = req.timeInForce;
    if (req.expiresAt !== undefined) body.expiration_date = String(req.expiresAt);
    try {
      // a request whose every field has its wire form skips the client's body rules (the gate
      // ruled the order already); any other goes through them and is refused naming the field
      const opts = wellFormed(req, body) ? this.checkedWrite : this.write;
      return orderFromWire(await this.api.createOrder(this.profileId, body as unknown as CreateOrderRequest, opts), 'CreateOrder');
    } catch (e) {
      if (ownConflict(e)) return orderFromWire(e.existing, 'CreateOrder');
      throw mapApiError(e);
    }
  }

  async cancelOrder(orderId: string): Promise<void> {
    await this.api.cancelOrder(this.profileId, orderId, this.write).catch((e: unknown) => {
      throw mapApiError(e);
    });
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    return orderFromWire(await this.api.getOrder(this.profileId, orderId, this.write).catch(rethrow), 'GetOrder');
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    const page = await this.api.listProfileOrders(this.profileId, { ref_ids: [refId], limit: 10 }, this.write).catch(rethrow);
    const found = page.items.find((o) => o.ref_id === refId);
    return found && orderFromWire(found, 'ListProfileOrders');
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    const out: VenueOrder[] = [];
    for await (const o of this.api.paginate<Order>(
      'ListProfileOrders',
      { path: { profile_id: this.profileId }, query: { status: 'OPEN', limit: 1000 } },
      this.write,
    ))
      out.push(orderFromWire(o, 'ListProfileOrders'));
    return out;
  }

  async *ordersSince(sinceMs: number): AsyncIterable<VenueOrder> {
    const query = { 'order_time.begin': new Date(sinceMs).toISOString(), limit: 1000 };
    yield* this.pages<Order, VenueOrder>('ListProfileOrders', query, orderFromWire);
  }

  async *quoteExecutionsSince(sinceMs: number): AsyncIterable<VenueQuoteExecution> {
    const query = { 'created_at.begin': new Date(sinceMs).toISOString(), limit: 1000, order: 'ASC' };
    yield* this.pages<unknown, VenueQuoteExecution>('ListQuoteExecutions', query, quoteExecutionFromWire);
  }

  /** Every item of a list of this profile, page by page, each read from the wire; API errors mapped as for any read. */
  private async *pages<W, T>(
    operation: 'ListProfileOrders' | 'ListQuoteExecutions',
    query: Record<string, string | number>,
    read: (raw: W, operation: string) => T,
  ): AsyncIterable<T> {
    try {
      for await (const raw of this.api.paginate<W>(operation, { path: { profile_id: this.profileId }, query }, this.write))
        yield read(raw, operation);
    } catch (e) {
      throw mapApiError(e);
    }
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    const out: VenueFill[] = [];
    const query = { 'range.begin': new Date(sinceMs).toISOString(), limit: 500 };
    for await (const x of this.api.paginate<Execution>(
      'ListProfileExecutions',
      { path: { profile_id: this.profileId }, query },
      this.write,
    ))
      out.push(fillFromWire(x, 'ListProfileExecutions'));
    return out.sort((a, b) => a.at - b.at);
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    const res = await this.api.listQuotes([market], this.write).catch(rethrow);
    return res.items.map((q) => quoteFromWire(q, 'ListQuotes'));
  }

  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    const body = {
      ref_id: req.refId,
      quote_id: req.quoteId,
      ...(req.baseAmount !== undefined && { base_amount: req.baseAmount }),
      ...(req.quoteAmount !== undefined && { quote_amount: req.quoteAmount }),
    };
    try {
      return quoteExecutionFromWire(await this.api.createQuoteExecution(this.profileId, body, this.write), 'CreateQuoteExecution');
    } catch (e) {
      if (ownConflict(e)) return quoteExecutionFromWire(e.existing, 'CreateQuoteExecution');
      throw mapApiError(e);
    }
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    return quoteExecutionFromWire(
      await this.api.getQuoteExecution(this.profileId, executionId, this.write).catch(rethrow),
      'GetQuoteExecution',
    );
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    const page = await this.api.listQuoteExecutions(this.profileId, { limit: 200, order: 'DESC' }, this.write).catch(rethrow);
    const found = page.items.find((x) => x.ref_id === refId);
    return found && quoteExecutionFromWire(found, 'ListQuoteExecutions');
  }

  async balances(): Promise<readonly VenueBalance[]> {
    const res = await this.api.listProfileBalances(this.profileId, [], this.write).catch(rethrow);
    return res.items.map((b) => balanceFromWireRecord(b, 'ListProfileBalances'));
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    const body = {
      ref_id: req.refId,
      asset: req.asset,
      amount: req.amount,
      from_profile_id: req.fromProfileId,
      to_profile_id: req.toProfileId,
    };
    try {
      return transferFromWire(await this.api.createInternalTransfer(body, this.write), 'CreateInternalTransfer', req.refId);
    } catch (e) {
      if (ownConflict(e)) return transferFromWire(e.existing, 'CreateInternalTransfer', req.refId);
      throw mapApiError(e);
    }
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    const page = await this.api.listTransfers({ ref_ids: [refId], limit: 10 }, this.write).catch(rethrow);
    const t = page.items.find((x) => x.ref_id === refId);
    return t && transferFromWire(t, 'ListTransfers', refId);
  }

  /** ListTransferLimits for transfer intents, at low priority (metadata, read at start and after transfers). */
  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    const res = await this.api.listTransferLimits(TRANSFER_INTENT_TYPE, { priority: 'low' }).catch(rethrow);
    return res.items.map((l) => ({
      ...(l.limit_asset !== undefined && { limitAsset: l.limit_asset }),
      ...(l.limit !== undefined && { limit: l.limit }),
      ...(l.remaining !== undefined && { remaining: l.remaining }),
      ...(l.period_seconds !== undefined && { periodSeconds: l.period_seconds }),
    }));
  }

  /**
   * ListMarkets, at low priority (it is metadata, read at start). A row without a usable tick or a
   * market we cannot split is left out rather than failing the others: the caller reports the markets
   * it needs and does not find.
   */
  async instruments(): Promise<readonly Instrument[]> {
    const res = await this.api.listMarkets({ priority: 'low' }).catch(rethrow);
    const out: Instrument[] = [];
    for (const m of res.markets) {
      const built = listedInstrument(m);
      if (built !== undefined) out.push(built);
    }
    return out;
  }
}

function listedInstrument(m: MarketDetails): Instrument | undefined {
  try {
    return instrumentOf({
      market: m.market,
      tickRate: m.tick_rate,
      ...(m.base_asset && m.quote_asset ? { base: m.base_asset, quote: m.quote_asset } : {}),
    });
  } catch {
    return undefined;
  }
}

/** A read's failure: as a write's, except that what would be an unknown outcome is a failed read. */
function rethrow(e: unknown): never {
  throw mapReadError(e);
}

/**
 * API errors of a read → venue errors. A read changes nothing at the venue, so what is an unknown
 * outcome for a write (5xx, a lost answer, a malformed body, all already retried by the client
 * within api.max_retries) is a read that failed: VenueReadError, naming the operation and why.
 */
export function mapReadError(e: unknown): Error {
  const mapped = mapApiError(e);
  if (!(mapped instanceof VenueUnknownOutcomeError)) return mapped;
  return new VenueReadError(
    `${(e as Error).message}; the venue gave no usable answer to this read after the retries allowed by api.max_retries (nothing was changed at the venue)`,
    { cause: e },
  );
}

/** API errors → venue errors: unknown outcomes, not-found, and definitive refusals. */
export function mapApiError(e: unknown): Error {
  // never sent (breaker open): known not to have run, unlike an unknown outcome
  if (e instanceof VenueUnreachableError) return new VenueRejectedError(VENUE_UNREACHABLE, e.message, { notSent: true, since: e.since });
  if (outcomeUnknown(e)) return new VenueUnknownOutcomeError((e as Error).message, { cause: e });
  if (e instanceof NotFoundError) return new VenueNotFoundError(e.message);
  if (e instanceof ConflictError && e.code === REF_ID_REUSED) return new VenueRejectedError(REF_ID_REUSED, e.message, { status: e.status });
  if (e instanceof ApiError) {
    if (e.status === undefined || e.status >= 500 || e.status === 429 || e.status === 401)
      return new VenueUnknownOutcomeError(e.message, { cause: e });
    // the platform has no slug for a transfer over its limit: the sandbox's 403 carries the rule's numbers in meta
    const overLimit =
      e.status === 403 &&
      e.slug === undefined &&
      typeof e.problem?.meta?.transfer_type === 'string' &&
      e.problem.meta.remaining !== undefined;
    const code = overLimit ? 'TRANSFER_LIMIT_EXCEEDED' : (e.slug ?? e.code).toUpperCase().replace(/-/g, '_');
    return new VenueRejectedError(code, e.message, { status: e.status, ...(e.problem?.meta ?? {}) });
  }
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * A 409 whose existing record is ours (the client found its fields equal to the request). A 409 the
 * client marked REF_ID_REUSED names someone else's record and must never be taken for ours.
 */
function ownConflict(e: unknown): e is ConflictError & { existing: Record<string, unknown> } {
  return e instanceof ConflictError && e.code !== REF_ID_REUSED && isRecord(e.existing);
}

/**
 * Whether an order request already has every field in its wire form, as the client's CreateOrder
 * rules want it: side, market and type given, each amount and price an unsigned decimal string, the
 * expiry whole epoch milliseconds. A cheaper check than the client's rules, for orders only.
 */
function wellFormed(req: PlaceOrderRequest, body: Record<string, string>): boolean {
  if (!req.side || !req.market || !req.type || typeof req.refId !== 'string' || req.refId === '') return false;
  for (const v of [req.baseAmount, req.quoteAmount, req.price, req.stopPrice])
    if (v !== undefined && !(typeof v === 'string' && WIRE_DECIMAL.test(v))) return false;
  return body.expiration_date === undefined || /^\d+$/.test(body.expiration_date);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}
