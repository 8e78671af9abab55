import {
  MalformedResponseError,
  type HistoricalPrices,
  type Items,
  type OrderBook,
  type Price,
  type Quote,
  type Ticker,
} from '../../api/index.js';
import type { MarketEvent, PriceLevel } from '../../core/index.js';
import type { AccountEvent, OpenOrderView, PendingQuoteExecutionView } from '../../state/index.js';
import type { MarketTrades } from '../market-source.js';
import type { VenueFill, VenueOrder, VenueQuoteExecution } from '../venue.js';
import { balanceFromWireRecord, fillFromWire, orderFromWire, quoteExecutionFromWire, quoteFromWire } from '../wire-records.js';
import { tradesFromWire } from './recent-trades.js';
import type { StreamId } from './stream-names.js';

/** What one response becomes: market events, an account event, new fills. */
export interface Decoded {
  readonly market: readonly MarketEvent[];
  readonly account?: AccountEvent;
  readonly fills?: readonly VenueFill[];
  /** New public trades of a market (the trades stream): the book replay's fills, and bars built from trades. */
  readonly trades?: MarketTrades;
}

export interface DecoderOptions {
  /** Levels kept per side of a book (default 50): a fixed size whatever the server sends. */
  readonly bookDepth?: number;
  /** Fill ids remembered to report each fill once (default 4096). */
  readonly fillMemory?: number;
}

const NONE: Decoded = { market: [] };

/**
 * Maps parsed wire responses (the client's single JSON.parse, shared) to `MarketEvent`s and
 * `AccountEvent`s stamped with the local receive time `at`; the server's `snapshot_at` travels
 * beside it as `serverAt`. Prices become numbers (signals); balances and order amounts stay
 * Decimal. The same decoder serves live polling and the replay of a recording, so both yield the
 * same events. Fills are reported once each (a bounded ring of recent ids).
 */
export class ResponseDecoder {
  private readonly bookDepth: number;
  private readonly seenFills: FillRing;

  constructor(options: DecoderOptions = {}) {
    this.bookDepth = options.bookDepth ?? 50;
    this.seenFills = new FillRing(options.fillMemory ?? 4096);
  }

  decode(id: StreamId, body: unknown, at: number): Decoded {
    if (body === null || typeof body !== 'object') throw malformed(id, 'the body is not a JSON object');
    switch (id.kind) {
      case 'ticker':
        return { market: [tickerEvent(body as Ticker, id.market ?? (body as Ticker).market, at)] };
      case 'book':
        return { market: [this.bookEvent(body as OrderBook, id.market ?? (body as OrderBook).market, at)] };
      case 'prices':
        return { market: items<Price>(id, body).flatMap((p) => priceEvent(p, at)) };
      case 'trades': {
        // checked here like every response; the tape feeds the book replay's fill model and the bars built from trades
        const trades = tradesFromWire(body, where(id)).map((t) => ({ at: t.at, price: Number(t.price), amount: Number(t.amount) }));
        return trades.length === 0 || id.market === undefined ? NONE : { market: [], trades: { market: id.market, trades } };
      }
      case 'history':
        return { market: historyEvents(body as HistoricalPrices, id.market ?? '') };
      case 'quotes':
        return { market: items<unknown>(id, body).map((q) => quoteEvent(q, at, where(id))) };
      case 'balances':
        return {
          market: [],
          account: { kind: 'balances', at, items: items<unknown>(id, body).map((b) => balanceFromWireRecord(b, where(id))) },
        };
      case 'open-orders':
        return {
          market: [],
          account: { kind: 'open-orders', at, orders: items<unknown>(id, body).map((o) => openOrderView(orderFromWire(o, where(id)))) },
        };
      case 'quote-executions': {
        const all = items<unknown>(id, body).map((x) => quoteExecutionFromWire(x, where(id)));
        return {
          market: [],
          account: { kind: 'quote-executions', at, pending: all.filter((x) => x.status !== 'SETTLED').map(pendingView) },
        };
      }
      case 'fills':
        return this.fills(items<unknown>(id, body).map((x) => fillFromWire(x, where(id))));
    }
  }

  private bookEvent(book: OrderBook, market: string, at: number): MarketEvent {
    return { kind: 'book', market, at, bids: levels(book.bids, this.bookDepth), asks: levels(book.asks, this.bookDepth) };
  }

  /** Every record of the response has been read before any fill id is remembered (a refusal remembers none). */
  private fills(list: readonly VenueFill[]): Decoded {
    const fresh: VenueFill[] = [];
    for (const fill of list) {
      if (!this.seenFills.add(fill.fillId)) continue;
      fresh.push(fill);
    }
    if (fresh.length === 0) return NONE;
    fresh.sort((a, b) => a.at - b.at);
    return { market: [], fills: fresh };
  }
}

function malformed(id: StreamId, detail: string): MalformedResponseError {
  return new MalformedResponseError(`${where(id)} response: ${detail}`, { operation: where(id) });
}

/** The name a record's refusal carries: the stream kind, as in every other error of this decoder. */
function where(id: StreamId): string {
  return id.kind;
}

function items<T>(id: StreamId, body: object): readonly T[] {
  const list = (body as { items?: unknown }).items;
  if (!Array.isArray(list)) throw malformed(id, 'expected an items array');
  return list as T[];
}

function num(value: unknown): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function time(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : undefined;
}

function level(raw: { price?: unknown; amount?: unknown } | undefined): PriceLevel | undefined {
  const price = num(raw?.price);
  const amount = num(raw?.amount);
  return price !== undefined && price > 0 && amount !== undefined ? { price, amount } : undefined;
}

function levels(raw: readonly { price?: unknown; amount?: unknown }[] | undefined, depth: number): PriceLevel[] {
  const out: PriceLevel[] = [];
  if (!Array.isArray(raw)) return out;
  for (let i = 0; i < raw.length && out.length < depth; i++) {
    const l = level(raw[i]);
    if (l !== undefined) out.push(l);
  }
  return out;
}

function tickerEvent(t: Ticker, market: string, at: number): MarketEvent {
  const stats = t.today ?? t.last_day;
  const e: { -readonly [K in keyof Extract<MarketEvent, { kind: 'ticker' }>]: Extract<MarketEvent, { kind: 'ticker' }>[K] } = {
    kind: 'ticker',
    market,
    at,
  };
  const serverAt = time(t.snapshot_at);
  if (serverAt !== undefined) e.serverAt = serverAt;
  const bid = level(t.best_bid);
  const ask = level(t.best_ask);
  const last = level(t.last_execution);
  if (bid) e.bid = bid;
  if (ask) e.ask = ask;
  if (last) e.last = last;
  const [high, low, open, volume] = [num(stats?.high), num(stats?.low), num(stats?.open), num(stats?.volume)];
  if (high !== undefined) e.dayHigh = high;
  if (low !== undefined) e.dayLow = low;
  if (open !== undefined) e.dayOpen = open;
  if (volume !== undefined) e.dayVolume = volume;
  return e;
}

function priceEvent(p: Price, at: number): MarketEvent[] {
  const price = num(p.current_price);
  if (price === undefined || price <= 0 || typeof p.market !== 'string') return [];
  const serverAt = time(p.snapshot_at);
  return [
    serverAt === undefined ? { kind: 'price', market: p.market, at, price } : { kind: 'price', market: p.market, at, serverAt, price },
  ];
}

/**
 * A quote's expiry on the local clock: the earlier of the server's `expires_at` and the local
 * receive time plus the quote's lifetime, so a server clock ahead of ours never stretches a quote.
 * A quote without id, market, side, price or expiry is refused (see quoteFromWire), not skipped.
 */
function quoteEvent(raw: unknown, at: number, operation: string): MarketEvent {
  const q = quoteFromWire(raw, operation);
  const created = time((raw as Quote).created_at);
  const expiresAt = created === undefined ? q.expiresAt : Math.min(q.expiresAt, at + (q.expiresAt - created));
  // the wire string, as the venue wrote it (quoteFromWire has checked it is a decimal above zero)
  return { kind: 'quote', market: q.market, at, quoteId: q.quoteId, side: q.side, price: (raw as Quote).price, expiresAt };
}

function historyEvents(h: HistoricalPrices, market: string): MarketEvent[] {
  const list = (h as { items?: unknown }).items;
  if (!Array.isArray(list))
    throw new MalformedResponseError('history response: expected an items array', { operation: 'ListHistoricalPrices' });
  const out: MarketEvent[] = [];
  for (const p of list as Items<{ average_price?: unknown; timestamp?: unknown }>['items']) {
    const price = num(p.average_price);
    const at = time(p.timestamp);
    if (price !== undefined && price > 0 && at !== undefined) out.push({ kind: 'price', market, at, price });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The account store's view of an open order: the venue order without what only the journal needs. */
function openOrderView(o: VenueOrder): OpenOrderView {
  return {
    orderId: o.orderId,
    refId: o.refId,
    market: o.market,
    side: o.side,
    type: o.type,
    ...(o.price && { price: o.price }),
    ...(o.baseAmount && { baseAmount: o.baseAmount }),
    ...(o.quoteAmount && { quoteAmount: o.quoteAmount }),
    amountFilled: o.amountFilled,
    status: o.status,
  };
}

function pendingView(x: VenueQuoteExecution): PendingQuoteExecutionView {
  return {
    executionId: x.executionId,
    ...(x.refId !== undefined && { refId: x.refId }),
    market: x.market,
    side: x.side,
    baseAmount: x.baseAmount,
    quoteAmount: x.quoteAmount,
  };
}

/** Recently seen ids in a fixed-size ring with a set for lookups. */
class FillRing {
  private readonly ring: (string | undefined)[];
  private readonly set = new Set<string>();
  private next = 0;

  constructor(readonly capacity: number) {
    this.ring = new Array<string | undefined>(capacity);
  }

  /** True when `id` was not seen (and remembers it). */
  add(id: string): boolean {
    if (this.set.has(id)) return false;
    const evicted = this.ring[this.next];
    if (evicted !== undefined) this.set.delete(evicted);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.capacity;
    this.set.add(id);
    return true;
  }
}
