import { D, type Dec, type Instrument, type MarketSymbol, type Side } from '../../src/core/index.js';
import { tradingInstruments } from '../../src/platform/instruments.js';
import {
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
} from '../../src/venue/index.js';

/** A fault to inject into the next call of a method. */
export type Fault = 'unknown-after-commit' | 'unknown-before-commit' | 'reject' | 'unreachable';

type Method = keyof Venue;

/**
 * An in-memory venue for executor and reconciler tests: orders rest until the test fills or cancels
 * them, and exact faults can be scripted per call ("commit, then lose the response", and so on).
 */
export class ScriptedVenue implements Venue {
  readonly name = 'scripted';
  readonly orders = new Map<string, { -readonly [K in keyof VenueOrder]: VenueOrder[K] }>();
  readonly fills: VenueFill[] = [];
  readonly quotes: VenueQuote[] = [];
  readonly executions = new Map<string, { -readonly [K in keyof VenueQuoteExecution]: VenueQuoteExecution[K] }>();
  readonly transfers = new Map<string, VenueTransfer>();
  readonly calls: Method[] = [];
  private readonly faults = new Map<Method, Fault[]>();
  private seq = 0;

  constructor(private readonly now: () => number) {}

  inject(method: Method, ...faults: Fault[]): void {
    this.faults.set(method, [...(this.faults.get(method) ?? []), ...faults]);
  }

  /** Count of venue orders per ref_id (duplicates would show as > 1). */
  ordersPerRef(): Map<string, number> {
    const m = new Map<string, number>();
    for (const o of this.orders.values()) m.set(o.refId, (m.get(o.refId) ?? 0) + 1);
    return m;
  }

  fill(orderId: string, amount: string, price: string): void {
    const o = this.mustOrder(orderId);
    o.amountFilled = o.amountFilled.plus(amount);
    o.averagePrice = new D(price);
    if (o.baseAmount && o.amountFilled.gte(o.baseAmount)) o.status = 'FILLED';
    this.fills.push({
      fillId: `f-${++this.seq}`,
      orderId,
      market: o.market,
      side: o.side,
      amount: new D(amount),
      price: new D(price),
      commission: new D('0.01'),
      commissionAsset: 'USD',
      at: this.now(),
    });
  }

  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    const fault = this.take('placeOrder');
    if (fault === 'unknown-before-commit' || fault === 'unreachable') throw new VenueUnknownOutcomeError('connection reset');
    if (fault === 'reject') throw new VenueRejectedError('INSUFFICIENT_FUNDS', 'insufficient funds');
    const existing = [...this.orders.values()].find((o) => o.refId === req.refId);
    const order = existing ?? this.create(req);
    if (fault === 'unknown-after-commit') throw new VenueUnknownOutcomeError('response lost after commit');
    return { ...order };
  }

  async cancelOrder(orderId: string): Promise<void> {
    this.take('cancelOrder');
    const o = this.mustOrder(orderId);
    if (o.status === 'OPEN') o.status = 'CANCELLED';
  }

  async getOrder(orderId: string): Promise<VenueOrder> {
    if (this.take('getOrder') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    return { ...this.mustOrder(orderId) };
  }

  async findOrderByRef(refId: string): Promise<VenueOrder | undefined> {
    if (this.take('findOrderByRef') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    const o = [...this.orders.values()].find((x) => x.refId === refId);
    return o && { ...o };
  }

  async listOpenOrders(): Promise<readonly VenueOrder[]> {
    this.take('listOpenOrders');
    return [...this.orders.values()].filter((o) => o.status === 'OPEN').map((o) => ({ ...o }));
  }

  async listFills(sinceMs: number): Promise<readonly VenueFill[]> {
    if (this.take('listFills') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    return this.fills.filter((f) => f.at >= sinceMs);
  }

  async listQuotes(market: MarketSymbol): Promise<readonly VenueQuote[]> {
    this.take('listQuotes');
    return this.quotes.filter((q) => q.market === market);
  }

  async executeQuote(req: ExecuteQuoteRequest): Promise<VenueQuoteExecution> {
    const fault = this.take('executeQuote');
    if (fault === 'unknown-before-commit') throw new VenueUnknownOutcomeError('reset');
    if (fault === 'reject') throw new VenueRejectedError('EXPIRED', 'quote expired');
    const q = this.quotes.find((x) => x.quoteId === req.quoteId);
    if (!q) throw new VenueNotFoundError(`quote ${req.quoteId}`);
    let x = [...this.executions.values()].find((e) => e.refId === req.refId);
    if (!x) {
      const base: Dec = req.baseAmount
        ? new D(req.baseAmount)
        : new D(req.quoteAmount ?? '0').div(q.price).toDecimalPlaces(8, D.ROUND_DOWN);
      x = {
        executionId: `qx-${++this.seq}`,
        refId: req.refId,
        quoteId: q.quoteId,
        market: q.market,
        side: q.side,
        price: q.price,
        baseAmount: base,
        quoteAmount: base.times(q.price).toDecimalPlaces(2),
        status: 'CREATED',
      };
      this.executions.set(x.executionId, x);
    }
    if (fault === 'unknown-after-commit') throw new VenueUnknownOutcomeError('response lost after commit');
    return { ...x };
  }

  async getQuoteExecution(executionId: string): Promise<VenueQuoteExecution> {
    this.take('getQuoteExecution');
    const x = this.executions.get(executionId);
    if (!x) throw new VenueNotFoundError(executionId);
    return { ...x };
  }

  async findQuoteExecutionByRef(refId: string): Promise<VenueQuoteExecution | undefined> {
    if (this.take('findQuoteExecutionByRef') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    const x = [...this.executions.values()].find((e) => e.refId === refId);
    return x && { ...x };
  }

  async balances(): Promise<readonly VenueBalance[]> {
    return [{ asset: 'USD', available: new D('1000'), trading: new D('0') }];
  }

  async transfer(req: TransferRequest): Promise<VenueTransfer> {
    const fault = this.take('transfer');
    if (fault === 'unknown-before-commit') throw new VenueUnknownOutcomeError('reset');
    const t = this.transfers.get(req.refId) ?? { transferId: `t-${++this.seq}`, refId: req.refId, status: 'COMPLETED' };
    this.transfers.set(req.refId, t);
    if (fault === 'unknown-after-commit') throw new VenueUnknownOutcomeError('lost');
    return t;
  }

  async findTransferByRef(refId: string): Promise<VenueTransfer | undefined> {
    return this.transfers.get(refId);
  }

  /** The transfer limits it lists (none unless a test sets some); faults apply as to any call. */
  limits: readonly TransferLimitRow[] = [];

  async transferLimits(): Promise<readonly TransferLimitRow[]> {
    if (this.take('transferLimits') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    return this.limits;
  }

  private create(req: PlaceOrderRequest): VenueOrder {
    const o = {
      orderId: `o-${++this.seq}`,
      refId: req.refId,
      market: req.market,
      side: req.side as Side,
      type: req.type,
      status: 'OPEN',
      baseAmount: req.baseAmount ? new D(req.baseAmount) : undefined,
      quoteAmount: req.quoteAmount ? new D(req.quoteAmount) : undefined,
      price: req.price ? new D(req.price) : undefined,
      amountFilled: new D(0),
      createdAt: this.now(),
    };
    this.orders.set(o.orderId, o);
    return o;
  }

  /** The instruments it lists (the sim catalog's unless a test sets others); faults apply as to any call. */
  listed: readonly Instrument[] = tradingInstruments();

  async instruments(): Promise<readonly Instrument[]> {
    if (this.take('instruments') === 'unreachable') throw new VenueUnknownOutcomeError('unreachable');
    return this.listed;
  }

  private mustOrder(orderId: string) {
    const o = this.orders.get(orderId);
    if (!o) throw new VenueNotFoundError(`order ${orderId}`);
    return o;
  }

  private take(method: Method): Fault | undefined {
    this.calls.push(method);
    const list = this.faults.get(method);
    return list?.shift();
  }
}
