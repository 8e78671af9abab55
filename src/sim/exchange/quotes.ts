import { D, type Dec } from '../../core/decimal.js';
import { type Side } from '../../core/messages.js';
import { isTradingMarket, splitMarket } from '../../core/markets.js';
import { InputError } from '../../core/errors.js';
import { marketSpec } from '../market/catalog.js';
import { type IdSource } from '../ids.js';

/** How held-rate quotes are priced and refreshed. */
export interface QuoteSettings {
  /** Distance between the BUY and SELL price, basis points of mid (default 20: each side 10 bps from mid). */
  readonly spreadBps: number;
  /** How long a quote's price is guaranteed (default 30 000 ms, as in the spec's examples). */
  readonly validityMs: number;
  /** At most one new quote per market and side per this many ms (default 1000). */
  readonly refreshMs: number;
  /** An execution is `rejected` when mid has moved more than this fraction since the quote (default 0.05). */
  readonly rejectMove: number;
  /** Delay from CREATED to SETTLED of a quote execution (default 1000 ms). */
  readonly settleDelayMs: number;
}

export const DEFAULT_QUOTE_SETTINGS: QuoteSettings = {
  spreadBps: 20,
  validityMs: 30_000,
  refreshMs: 1000,
  rejectMove: 0.05,
  settleDelayMs: 1000,
};

/** A held-rate quote: BUY is the price the customer pays, SELL the price it receives. */
export interface SimQuote {
  readonly id: string;
  readonly market: string;
  readonly side: Side;
  readonly price: Dec;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The mid the price was made from (a number: for the `rejected` check only). */
  readonly mid: number;
}

/** Quotes stay resolvable (for the 403 `expired` answer) this long after they expire; then 404. */
const RETENTION_MS = 3_600_000;

/**
 * The quote model of the simulated platform (served by the sandbox, and by SimVenue in paper mode):
 * per market, one BUY and one SELL quote per refresh slot, priced `spreadBps / 2` either side of the
 * simulated mid (BUY rounded up, SELL down to the market's tick). Repeated requests within a slot
 * return the same quotes.
 */
export class QuoteBook {
  private readonly byId = new Map<string, SimQuote>();
  private readonly current = new Map<string, { slot: number; quotes: readonly [SimQuote, SimQuote] }>();

  constructor(
    readonly settings: QuoteSettings,
    private readonly ids: IdSource,
    private readonly midAt: (market: string, atMs: number) => number,
  ) {}

  /** The live BUY and SELL quotes of each market, issuing new ones when the slot has moved on. */
  list(markets: readonly string[], nowMs: number): SimQuote[] {
    this.prune(nowMs);
    const out: SimQuote[] = [];
    for (const market of markets) {
      if (!isTradingMarket(market))
        throw new InputError('markets', `${JSON.stringify(market)} is not a trading market: use markets such as BTCUSD or ETHEUR`);
      out.push(...this.pair(market, nowMs));
    }
    return out;
  }

  get(id: string): SimQuote | undefined {
    return this.byId.get(id);
  }

  /** Mid of a market now (for the `rejected` check). */
  midNow(market: string, nowMs: number): number {
    return this.midAt(market, nowMs);
  }

  /** Every quote still remembered, oldest first (snapshots). */
  saved(): SimQuote[] {
    return [...this.byId.values()];
  }

  restore(quotes: readonly SimQuote[]): void {
    this.byId.clear();
    this.current.clear();
    for (const q of quotes) this.byId.set(q.id, q);
  }

  private pair(market: string, nowMs: number): readonly [SimQuote, SimQuote] {
    const slot = Math.floor(nowMs / this.settings.refreshMs);
    const cur = this.current.get(market);
    if (cur !== undefined && cur.slot === slot) return cur.quotes;
    const mid = this.midAt(market, nowMs);
    const spec = marketSpec(market);
    const half = new D(this.settings.spreadBps).div(20_000);
    const midDec = new D(mid.toFixed(8));
    const make = (side: Side): SimQuote => {
      const raw = side === 'BUY' ? midDec.times(half.plus(1)) : midDec.times(new D(1).minus(half));
      const price = raw.toDecimalPlaces(spec.priceDecimals, side === 'BUY' ? D.ROUND_UP : D.ROUND_DOWN);
      const { base, quote } = splitMarket(market);
      const q: SimQuote = {
        id: this.ids.next('quotes'),
        market,
        side,
        price,
        baseAsset: base,
        quoteAsset: quote,
        createdAt: nowMs,
        expiresAt: nowMs + this.settings.validityMs,
        mid,
      };
      this.byId.set(q.id, q);
      return q;
    };
    const quotes = [make('BUY'), make('SELL')] as const;
    this.current.set(market, { slot, quotes });
    return quotes;
  }

  private prune(nowMs: number): void {
    for (const [id, q] of this.byId) {
      if (q.expiresAt + RETENTION_MS >= nowMs) break;
      this.byId.delete(id);
    }
  }
}
