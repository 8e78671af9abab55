import { InputError, isMarketDataMarket, isPriceMarket, isTradingMarket, PRICE_MARKETS, type MarketSymbol } from '../../core/index.js';
import type { MarketSubscription } from '../market-source.js';
import { streamName, type StreamId } from './stream-names.js';

/** One stream to run: its identity and the markets its single request covers. */
export interface PlannedStream {
  readonly id: StreamId;
  readonly name: string;
  /** Markets of the request (one for ticker/book, all subscribed for prices/quotes). */
  readonly markets: readonly MarketSymbol[];
  /** Changes when the request changes: a running stream with the same key is kept as it is. */
  readonly key: string;
}

type Kind = 'price' | 'ticker' | 'book' | 'quote';

const RULES: Record<Kind, { readonly ok: (m: string) => boolean; readonly fix: string }> = {
  price: { ok: isPriceMarket, fix: `ListPrices covers ${PRICE_MARKETS.join(', ')}: subscribe to "ticker" for other markets` },
  ticker: { ok: isMarketDataMarket, fix: 'GetTicker covers the market-data markets (see MARKET_DATA_MARKETS)' },
  book: { ok: isMarketDataMarket, fix: 'GetOrderBook covers the market-data markets (see MARKET_DATA_MARKETS)' },
  quote: { ok: isTradingMarket, fix: 'ListQuotes covers the trading markets (see TRADING_MARKETS)' },
};

/** What a plan adds beyond the subscriptions' own kinds. */
export interface PlanOptions {
  /**
   * Poll the recent trades (ListRecentExecutions) of every subscribed market the operation serves
   * (`streams.trades_ms` set): recordings then hold the trades a book replay fills resting limits on.
   */
  readonly trades?: boolean;
  /** Poll the ticker of every subscribed market-data market (`streams.ticker_ms` set), asked for or not. */
  readonly tickers?: boolean;
  /** Poll the book of every subscribed market-data market (`streams.book_ms` set), asked for or not. */
  readonly books?: boolean;
}

/**
 * The streams that the subscriptions need and those the config turns on: one ticker and one book
 * stream per market that asks for them (every subscribed market-data market with `tickers`/`books`), one prices request and one quotes request covering every market that
 * asks, a trades stream per subscribed market-data market when `trades` is asked for, and the
 * account streams when a profile is known. Throws InputError naming the subscription whose market
 * the platform does not serve for that kind.
 */
export function planStreams(
  subscriptions: readonly MarketSubscription[],
  withAccount: boolean,
  options: PlanOptions = {},
): PlannedStream[] {
  const byKind: Record<Kind, Set<MarketSymbol>> = { price: new Set(), ticker: new Set(), book: new Set(), quote: new Set() };
  subscriptions.forEach((s, i) => {
    for (const kind of s.kinds) {
      const rule = RULES[kind];
      if (rule === undefined)
        throw new InputError(`subscriptions[${i}].kinds`, `unknown kind ${JSON.stringify(kind)}: use price, ticker, book or quote`);
      if (!rule.ok(s.market))
        throw new InputError(`subscriptions[${i}].market`, `${JSON.stringify(s.market)} has no ${kind} stream: ${rule.fix}`);
      byKind[kind].add(s.market);
    }
  });
  const served = subscriptions.map((s) => s.market).filter((m) => isMarketDataMarket(m));
  if (options.tickers === true) for (const m of served) byKind.ticker.add(m);
  if (options.books === true) for (const m of served) byKind.book.add(m);
  const out: PlannedStream[] = [];
  for (const m of [...byKind.ticker].sort()) out.push(single({ kind: 'ticker', market: m }));
  for (const m of [...byKind.book].sort()) out.push(single({ kind: 'book', market: m }));
  if (byKind.price.size > 0) out.push(combined('prices', [...byKind.price].sort()));
  if (byKind.quote.size > 0) out.push(combined('quotes', [...byKind.quote].sort()));
  if (options.trades === true) {
    for (const m of [...new Set(served)].sort()) out.push(single({ kind: 'trades', market: m }));
  }
  if (withAccount) {
    for (const kind of ['balances', 'open-orders', 'fills', 'quote-executions'] as const) out.push(combined(kind, []));
  }
  return out;
}

function single(id: StreamId): PlannedStream {
  const name = streamName(id);
  return { id, name, markets: [id.market as MarketSymbol], key: name };
}

function combined(kind: StreamId['kind'], markets: MarketSymbol[]): PlannedStream {
  return { id: { kind }, name: kind, markets, key: `${kind}|${markets.join(',')}` };
}

/** Whether a market event of `kind` for `market` is wanted by the subscriptions. */
export function subscribedTo(subscriptions: readonly MarketSubscription[]): (kind: Kind, market: MarketSymbol) => boolean {
  const wanted = new Set<string>();
  for (const s of subscriptions) for (const k of s.kinds) wanted.add(`${k}|${s.market}`);
  return (kind, market) => wanted.has(`${kind}|${market}`);
}
