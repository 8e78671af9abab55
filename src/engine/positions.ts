import { D, ZERO, splitMarket, type Dec, type Decision, type ExecReport, type MarketSymbol } from '../core/index.js';
import { compare, EXACT_ZERO, exactOf, exactOfDecimal, minus, plus, toDecimal, type Exact } from '../core/exact.js';
import { applyExactFill, exactPositionOf, openExactBook, type ExactBook } from '../exec/exact-books.js';
import {
  holdingFill,
  holdingKey,
  type JournalHolding,
  type JournalStore,
  type StrategyFill,
  type StrategyPosition,
} from '../exec/index.js';
import { conversionPrice, type TradeIntent } from '../risk/facts.js';
import type { MarketSnapshot } from '../state/index.js';
import type { KeptExitLevels, OwnPosition } from '../strategy/index.js';

/** How strategies of one market hold it: each its own position (the default), or one position shared. */
export type PositionsMode = 'per_strategy' | 'shared';

/** The journal's meta key of a strategy's exit levels in a market. */
export const exitLevelsKey = (strategy: string, market: string): string => `exit-levels/${strategy}/${market}`;

export interface PositionBookDeps {
  readonly journal: Pick<JournalStore, 'get' | 'getMeta' | 'setMeta'> & { strategyFills?(): StrategyFill[] };
  readonly mode: PositionsMode;
  /** The markets each running strategy trades. */
  readonly markets: ReadonlyMap<string, ReadonlySet<MarketSymbol>>;
  /** The market's mid price (unrealized P&L). */
  readonly mid: (market: MarketSymbol) => number | undefined;
  /** The account's total of an asset, as last read. */
  readonly total: (asset: string) => Dec;
  /** The market's data: the live quote a quote-sized quote execution converts at (without it, quote executions sized in the quote asset commit nothing). */
  readonly snapshot?: (market: MarketSymbol) => Pick<MarketSnapshot, 'quotes'>;
  /**
   * Balances made strategies' own with the first balances (a backtest's: its starting base for its
   * only strategy, or a config's `strategies[].holdings`), each at most what no strategy holds then,
   * journaled once as `assign` does. A live run assigns the config's after its warm-up instead
   * (live/holdings.ts), when the market's price is known.
   */
  readonly startHoldings?: ReadonlyArray<StartHolding>;
}

/** A balance assigned at start: `amount` of the market's base, at a cost of `price` each. */
export interface StartHolding {
  readonly strategy: string;
  readonly market: MarketSymbol;
  readonly amount: string;
  readonly price: string;
}

/**
 * An approved sell still open: the base it may yet take out of its strategy's position (exact units:
 * every sell's amount is added and taken off again, and a Decimal is made only where one is read).
 */
interface Commitment {
  readonly key: string;
  remaining: Exact;
}

const keyOf = (strategy: string, market: string): string => `${strategy}\u0000${market}`;

/**
 * One strategy's book in one market: exact units (exact-books.ts: no Decimal made per fill), with the
 * Decimals a strategy or the gate reads of it made once after each change, when first read.
 */
interface Book {
  readonly exact: ExactBook;
  /** When the open round trip began (undefined while flat). */
  entryAt: number | undefined;
  position: Dec | undefined;
  cost: Dec | undefined;
  realized: Dec | undefined;
  fees: Dec | undefined;
}

const positionOf = (b: Book): Dec => (b.position ??= toDecimal(b.exact.position));
const costOf = (b: Book): Dec => (b.cost ??= toDecimal(b.exact.cost));
const isLong = (b: Book): boolean => b.exact.position.units > 0n;

/** The start's line on the balances no strategy holds, every asset in one line. */
export function unassignedNote(found: ReadonlyArray<{ readonly asset: string; readonly amount: Dec }>, mode: PositionsMode): string {
  const who =
    mode === 'shared'
      ? 'under risk.positions: shared the strategies of its market sell it together'
      : 'no strategy may sell it until strategies[].holdings assigns it to one (or risk.positions is shared)';
  return `held by no strategy: ${found.map((f) => `${f.amount.toFixed()} ${f.asset}`).join(', ')} (deposits, or holdings from before this journal; strategies[].holdings makes them a strategy's own): ${who}`;
}

/**
 * The position of every strategy in every market it trades, kept by the kernel from that strategy's
 * own fills as each is reported (orders and quote executions), with the accounting of `tradeloop
 * positions` (exec/journal-trades.ts), so both always agree. Built again from the journal's fills at
 * start, so a position goes on across restarts; its exit levels are kept in the journal's meta.
 *
 * A strategy may sell its own amount, less what its open sells will take. The balance no strategy
 * holds (a deposit, a holding found at start) is "unassigned": read from the first balances after
 * start, less what strategies hold. Under `per_strategy` no strategy may sell it until the config
 * assigns it (`strategies[].holdings`, or a backtest's starting base for its only strategy); under
 * `shared` the strategies of its market sell it, with their positions, as one.
 */
export class PositionBook {
  private readonly books = new Map<string, Book>();
  private readonly levels = new Map<string, KeptExitLevels>();
  private readonly views = new Map<string, Map<string, OwnPosition>>();
  private readonly commitments = new Map<string, Commitment>();
  private readonly committedBy = new Map<string, Exact>();
  /** The books again by strategy, then market (a lookup makes no key string). */
  private readonly booksBy = new Map<string, Map<string, Book>>();
  private readonly quotesApplied = new Set<string>();
  private unassigned: Map<string, Dec> | undefined;

  constructor(private readonly deps: PositionBookDeps) {
    for (const f of deps.journal.strategyFills?.() ?? []) this.apply(f);
    for (const [strategy, markets] of deps.markets) {
      for (const m of markets) {
        const kept = deps.journal.getMeta(exitLevelsKey(strategy, m));
        if (kept !== undefined && isLong(this.bookOf(strategy, m))) this.levels.set(keyOf(strategy, m), JSON.parse(kept) as KeptExitLevels);
      }
    }
  }

  get mode(): PositionsMode {
    return this.deps.mode;
  }

  /**
   * Whether a sell in `market` is held to the selling strategy's own position: always where positions
   * are per strategy (the default), even for a market's only strategy, so a balance no strategy holds
   * is sold only once the config assigns it (`strategies[].holdings`); never under `shared`.
   */
  restricted(_market: MarketSymbol): boolean {
    return this.deps.mode === 'per_strategy';
  }

  /** The strategy's own amount less its open sells (never below zero). */
  ownSellable(strategy: string, market: MarketSymbol): Dec {
    return this.freeOf(this.bookOf(strategy, market), keyOf(strategy, market));
  }

  /** A book's position less its strategy's open sells (never below zero); no arithmetic when nothing is committed (the per-point path). */
  private freeOf(book: Book, key: string): Dec {
    const committed = this.committedBy.get(key);
    if (committed === undefined || committed.units === 0n) {
      // the per-point path: the Decimal made once per change, read without bigint arithmetic
      const position = positionOf(book);
      return position.isNegative() ? ZERO : position;
    }
    const free = minus(book.exact.position, committed);
    return free.units < 0n ? ZERO : toDecimal(free);
  }

  /** What `strategy` may sell in `market` now (see OwnPosition.sellable). */
  sellable(strategy: string, market: MarketSymbol): Dec {
    if (this.restricted(market)) return this.ownSellable(strategy, market);
    let held = this.unassignedOf(splitMarket(market).base);
    for (const b of this.books.values())
      if (b.exact.market === market)
        held = held.plus(positionOf(b)).minus(toDecimal(this.committedBy.get(keyOf(b.exact.strategy, market)) ?? EXACT_ZERO));
    return held.isNegative() ? ZERO : held;
  }

  /** The balance of `asset` no strategy holds: as the first balances after start found it, less what strategies sold of it since. */
  unassignedOf(asset: string): Dec {
    return this.unassigned?.get(asset) ?? ZERO;
  }

  /** The cost basis of a strategy's positions in markets quoted in `quote` (what its allocation counts). */
  costOf(strategy: string, quote: string): Dec {
    let cost = ZERO;
    for (const b of this.books.values())
      if (b.exact.strategy === strategy && splitMarket(b.exact.market).quote === quote && isLong(b)) cost = cost.plus(costOf(b));
    return cost;
  }

  /** Base of `asset` held by strategies, all markets together. */
  heldOf(asset: string): Dec {
    let held = ZERO;
    for (const b of this.books.values()) if (splitMarket(b.exact.market).base === asset) held = held.plus(positionOf(b));
    return held;
  }

  /**
   * The first balances after start (read before trading) fix the unassigned amounts: each asset's total
   * less what strategies hold of it by the journal; later balances change nothing. Returns the assets
   * found unassigned (the start names them), or undefined for a later call.
   */
  onBalances(assets: Iterable<string>, at = 0): Array<{ readonly asset: string; readonly amount: Dec }> | undefined {
    if (this.unassigned !== undefined) return undefined;
    this.unassigned = new Map();
    for (const asset of assets) {
      const u = this.deps.total(asset).minus(this.heldOf(asset));
      if (u.gt(0)) this.unassigned.set(asset, u);
    }
    for (const h of this.deps.startHoldings ?? []) {
      if (this.assigned(h.strategy, h.market) !== undefined) continue;
      const amount = D.min(new D(h.amount), this.unassignedOf(splitMarket(h.market).base));
      if (amount.gt(0)) this.assign(h.strategy, h.market, amount, new D(h.price), at);
    }
    const found: Array<{ asset: string; amount: Dec }> = [];
    for (const [asset, amount] of this.unassigned) if (amount.gt(0) && this.heldAsBase(asset)) found.push({ asset, amount });
    return found;
  }

  /** Whether `asset` is the base of a market some strategy trades or traded. */
  private heldAsBase(asset: string): boolean {
    for (const markets of this.deps.markets.values()) for (const m of markets) if (splitMarket(m).base === asset) return true;
    return false;
  }

  /** The strategy's position as `ctx.position` gives it: one live object per strategy and market. */
  view(strategy: string, market: MarketSymbol): OwnPosition {
    // two levels of maps: a strategy asks for its position at every point, and a key made of both
    // names would be a new string to build and hash each time
    let mine = this.views.get(strategy);
    if (mine === undefined) this.views.set(strategy, (mine = new Map()));
    let v = mine.get(market);
    if (v === undefined) {
      const key = keyOf(strategy, market);
      // a book once made is kept for good: the view holds it from its first read
      let held: Book | undefined;
      const book = (): Book => (held ??= this.bookOf(strategy, market));
      const deps = this.deps;
      const levels = this.levels;
      const sellable = (): Dec => (this.restricted(market) ? this.freeOf(book(), key) : this.sellable(strategy, market));
      v = {
        market,
        get amount() {
          return positionOf(book());
        },
        get averageCost() {
          const b = book();
          return isLong(b) ? costOf(b).div(positionOf(b)) : undefined;
        },
        get realizedPnl() {
          const b = book();
          return (b.realized ??= toDecimal(b.exact.realized));
        },
        get fees() {
          const b = book();
          return (b.fees ??= toDecimal(b.exact.fees));
        },
        get unrealizedPnl() {
          const b = book();
          const mid = deps.mid(market);
          return isLong(b) && mid !== undefined ? new D(mid).times(positionOf(b)).minus(costOf(b)) : undefined;
        },
        get entryAt() {
          return book().entryAt;
        },
        get exitLevels() {
          return levels.get(key) ?? {};
        },
        get sellable() {
          return sellable();
        },
      };
      mine.set(market, v);
    }
    return v;
  }

  /** Every position with a fill so far, as `tradeloop positions` lists them. */
  list(): StrategyPosition[] {
    return [...this.books.values()].filter((b) => b.exact.lastAt > 0).map((b) => exactPositionOf(b.exact));
  }

  /** The run summary's account view: every strategy's position, and what no strategy holds of each base traded. */
  summary(): { readonly strategyPositions: StrategyPosition[]; readonly unassigned: Record<string, string> } {
    const unassigned: Record<string, string> = {};
    for (const [asset, amount] of this.unassigned ?? []) if (amount.gt(0) && this.heldAsBase(asset)) unassigned[asset] = amount.toFixed();
    return { strategyPositions: this.list(), unassigned };
  }

  /** Whether the first balances after start have been read (the unassigned amounts are known). */
  get balancesRead(): boolean {
    return this.unassigned !== undefined;
  }

  /** What the journal holds assigned to `strategy` in `market` by the config (`strategies[].holdings`), if anything. */
  assigned(strategy: string, market: MarketSymbol): JournalHolding | undefined {
    const text = this.deps.journal.getMeta(holdingKey(strategy, market));
    return text === undefined ? undefined : (JSON.parse(text) as JournalHolding);
  }

  /**
   * Makes `amount` of the balance no strategy holds `strategy`'s own position in `market`, at a cost
   * of `price` per unit, journaled once (a restart reads it back as an entry: see holdingFill). The
   * caller checks it is no more than is unassigned.
   */
  assign(strategy: string, market: MarketSymbol, amount: Dec, price: Dec, at: number): void {
    const key = holdingKey(strategy, market);
    const h: JournalHolding = { amount: amount.toFixed(), price: price.toFixed(), at };
    this.deps.journal.setMeta(key, JSON.stringify(h));
    this.apply(holdingFill(key, h)!);
    const asset = splitMarket(market).base;
    this.unassigned?.set(asset, D.max(ZERO, this.unassignedOf(asset).minus(amount)));
  }

  /** Records a strategy's exit levels in force (journaled; cleared when its position goes flat). */
  keepExitLevels(strategy: string, market: MarketSymbol, levels: KeptExitLevels): void {
    const key = keyOf(strategy, market);
    const text = JSON.stringify(levels);
    if (JSON.stringify(this.levels.get(key) ?? {}) === text) return;
    this.levels.set(key, levels);
    this.deps.journal.setMeta(exitLevelsKey(strategy, market), text);
  }

  /**
   * An approved sell commits the base it asks of its strategy's position until it fills or closes;
   * one sized in the quote asset, its quote amount at the price it converts at (as the gate counts it).
   */
  onDecision(d: Decision): void {
    const i = d.intent;
    if (d.kind !== 'approve' || (i.kind !== 'place-order' && i.kind !== 'execute-quote') || i.side !== 'SELL') return;
    const amount = i.baseAmount !== undefined ? exactAmount(i.baseAmount) : this.quoteSized(i);
    if (amount === undefined) return;
    const key = keyOf(i.strategy, i.market);
    this.commitments.set(i.intentId, { key, remaining: amount });
    this.committedBy.set(key, plus(this.committedBy.get(key) ?? EXACT_ZERO, amount));
  }

  /** A report of a strategy's intent: fills move its position at once; a closed order frees what it committed. */
  onReport(r: ExecReport): void {
    switch (r.kind) {
      case 'filled': {
        const strategy = this.deps.journal.get(r.refId)?.strategy;
        if (strategy === undefined) return;
        this.uncommit(r.refId, r.side === 'SELL' ? r.amount : undefined, r.orderDone === true);
        this.apply({
          strategy,
          refId: r.refId,
          market: r.market,
          side: r.side,
          amount: r.amount,
          price: r.price,
          commission: r.commission,
          commissionAsset: r.commissionAsset,
          at: r.at,
        });
        return;
      }
      case 'quote-executed': {
        if (this.quotesApplied.has(r.refId)) return;
        const strategy = this.deps.journal.get(r.refId)?.strategy;
        if (strategy === undefined) return;
        this.quotesApplied.add(r.refId);
        this.uncommit(r.refId, undefined, true);
        this.apply({
          strategy,
          refId: r.refId,
          market: r.market,
          side: r.side,
          amount: r.baseAmount,
          price: r.price,
          commission: '0',
          commissionAsset: '',
          at: r.at,
        });
        return;
      }
      case 'cancelled':
      case 'rejected':
      case 'failed':
      case 'denied':
        this.uncommit(r.refId, undefined, true);
        return;
      default:
        return;
    }
  }

  private quoteSized(i: TradeIntent): Exact | undefined {
    const price = conversionPrice(i, this.deps.snapshot?.(i.market) ?? { quotes: {} }, this.deps.mid(i.market));
    return i.quoteAmount === undefined || price === undefined || !new D(price).gt(0)
      ? undefined
      : exactOfDecimal(new D(i.quoteAmount).div(price));
  }

  /** Frees what the sell `refId` committed: the base it filled (`filled`, a sell's fill amount), or all of it once `done`. */
  private uncommit(refId: string, filled: string | undefined, done: boolean): void {
    const c = this.commitments.get(refId);
    if (c === undefined) return;
    let take = c.remaining;
    if (!done) {
      const amount = filled === undefined ? EXACT_ZERO : exactAmount(filled);
      if (compare(amount, take) < 0) take = amount;
    }
    c.remaining = minus(c.remaining, take);
    this.committedBy.set(c.key, minus(this.committedBy.get(c.key) ?? EXACT_ZERO, take));
    if (done || c.remaining.units === 0n) this.commitments.delete(refId);
  }

  private apply(f: StrategyFill): void {
    const book = this.bookOf(f.strategy, f.market);
    const x = book.exact;
    const before = x.position;
    const amount = valueOf(f.amount, 'amount');
    const open = x.trip !== undefined;
    // the book's figures only, as journal-trades.ts's applyFill gives them: no round trip written out
    applyExactFill(x, f.side, amount, valueOf(f.price, 'price'), f.price, valueOf(f.commission, 'commission'), f.commissionAsset, f.at);
    book.position = book.cost = book.realized = book.fees = undefined;
    if (x.trip === undefined) book.entryAt = undefined;
    else if (!open) book.entryAt = f.at;
    if (f.side === 'SELL') {
      // what a sell took beyond the strategy's own came out of the unassigned balance (worked out
      // only when some of the base is unassigned: none is in a backtest of one strategy)
      const asset = splitMarket(f.market).base;
      if (this.unassigned?.has(asset)) {
        const beyond = minus(amount, before);
        if (beyond.units > 0n) this.unassigned.set(asset, D.max(ZERO, this.unassigned.get(asset)!.minus(toDecimal(beyond))));
      }
      if (x.position.units === 0n && this.levels.delete(keyOf(f.strategy, f.market)))
        this.deps.journal.setMeta(exitLevelsKey(f.strategy, f.market), '{}');
    }
  }

  private bookOf(strategy: string, market: string): Book {
    let mine = this.booksBy.get(strategy);
    if (mine === undefined) this.booksBy.set(strategy, (mine = new Map()));
    let b = mine.get(market);
    if (b === undefined) {
      b = {
        exact: openExactBook(strategy, market),
        entryAt: undefined,
        position: undefined,
        cost: undefined,
        realized: undefined,
        fees: undefined,
      };
      this.books.set(keyOf(strategy, market), b);
      mine.set(market, b);
    }
    return b;
  }
}

/** A fill's value in exact units (a venue's decimal text; anything else is refused, naming the field). */
function valueOf(text: string, field: string): Exact {
  const x = exactOf(text) ?? (typeof text === 'string' ? exactOfDecimal(new D(text)) : undefined);
  if (x === undefined) throw new Error(`a fill's ${field} ${String(text)} is not a finite decimal`);
  return x;
}

/** An approved intent's amount in exact units (the gate has checked it is a decimal; anything else throws as a Decimal would). */
function exactAmount(text: string): Exact {
  return exactOf(text) ?? exactOfDecimal(new D(text))!;
}
