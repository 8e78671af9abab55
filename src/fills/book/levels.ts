/** The recorded order book as the recorded-book venue meets it (see venue.ts). */
import { D, type Dec, type PriceLevel } from '../../core/index.js';

/** One level of a recorded book, as decimals (what is left of it after our own fills). */
export interface Level {
  readonly price: Dec;
  amount: Dec;
}

/** A recorded book; its levels become decimals only when an order meets them (most books meet none). */
export class Book {
  private b: Level[] | undefined;
  private a: Level[] | undefined;

  constructor(
    readonly at: number,
    private readonly rawBids: readonly PriceLevel[],
    private readonly rawAsks: readonly PriceLevel[],
  ) {}

  get bids(): Level[] {
    return (this.b ??= levels(this.rawBids, 'bids'));
  }

  set bids(v: Level[]) {
    this.b = v;
  }

  get asks(): Level[] {
    return (this.a ??= levels(this.rawAsks, 'asks'));
  }

  set asks(v: Level[]) {
    this.a = v;
  }

  /** Whether the side a resting order meets could cross `price` (a float pre-check; decimals decide). */
  mayCross(side: 'BUY' | 'SELL', price: number): boolean {
    if (side === 'BUY')
      return this.a !== undefined
        ? this.a.length > 0 && this.a[0]!.price.toNumber() <= price
        : this.rawAsks.some((l) => l.amount > 0 && l.price > 0 && l.price <= price);
    return this.b !== undefined
      ? this.b.length > 0 && this.b[0]!.price.toNumber() >= price
      : this.rawBids.some((l) => l.amount > 0 && l.price >= price);
  }

  /** The recorded mid (a number: stops trigger on it as the sandbox's do), undefined for a one-sided book. */
  midPrice(): number | undefined {
    const bid = best(this.rawBids, (a, b) => a > b);
    const ask = best(this.rawAsks, (a, b) => a < b);
    return bid !== undefined && ask !== undefined ? (bid + ask) / 2 : undefined;
  }
}

function best(raw: readonly PriceLevel[], better: (a: number, b: number) => boolean): number | undefined {
  let out: number | undefined;
  for (const l of raw) if (l.amount > 0 && l.price > 0 && (out === undefined || better(l.price, out))) out = l.price;
  return out;
}

function levels(raw: readonly PriceLevel[], side: 'bids' | 'asks'): Level[] {
  const out = raw.filter((l) => l.amount > 0 && l.price > 0).map((l) => ({ price: new D(l.price), amount: new D(l.amount) }));
  return out.sort((a, b) => (side === 'bids' ? b.price.comparedTo(a.price) : a.price.comparedTo(b.price)));
}

/** The mid of what is left of the book (values orders for the notional cap), or its one side. */
export function bookMid(book: Book): Dec | undefined {
  const [bid, ask] = [book.bids[0], book.asks[0]];
  return bid && ask ? bid.price.plus(ask.price).div(2) : (bid ?? ask)?.price;
}
