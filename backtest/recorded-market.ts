/**
 * The book fill model's data: a stream recording's market events of one market (books, tickers,
 * prices, quotes, warm-up history and recorded trades), the rule the book model fills by, and which
 * fill model a backtest uses. The replay itself is built by driver.ts and stepped by book-run.ts.
 */
import { InputError, type MarketEvent, type MarketSymbol } from '../src/core/index.js';
import type { TapeTrade } from '../src/engine/engine-bars.js';
import { MAX_LISTED_PROBLEMS, PriceDataError, type PriceProblem } from '../src/sim/prices/price-file.js';
import { ResponseDecoder } from '../src/venue/polling/decode.js';
import { tradesFromWire, type RecordedTrade } from '../src/venue/polling/recent-trades.js';
import { readRecording } from '../src/venue/polling/recording-reader.js';
import { parseStreamName } from '../src/venue/polling/stream-names.js';
import { WarmUpCollector, type WarmUpSource } from './recorded-series.js';

/** The recorded market events of one market, grouped by receive time, oldest first. */
export interface RecordedMarket {
  readonly market: MarketSymbol;
  readonly steps: readonly { readonly at: number; readonly events: readonly MarketEvent[] }[];
  readonly books: number;
  readonly hasPrices: boolean;
  /** The warm-up history the run loaded before going live, oldest first. */
  readonly warmUp: readonly MarketEvent[];
  /** Where the warm-up came from: the header's prices, the `history:` lines (older recordings), or none. */
  readonly warmUpFrom: WarmUpSource;
  /** The recorded trades of the market (`trades:` responses), by execution time, oldest first. */
  readonly trades: readonly RecordedTrade[];
  /** Whether the run polled trades of the market at all (`streams.trades_ms`), even if none happened. */
  readonly tradesPolled: boolean;
  /**
   * The same trades as the run's engine heard them, for bars built from trades: each `trades:`
   * response that brought any, at the time the run received it, decoded as the live decoder does
   * (prices and amounts as numbers), in the recording's order.
   */
  readonly tapes: readonly { readonly at: number; readonly trades: readonly TapeTrade[] }[];
  /** The last time the recording holds (of any stream): the run was still up then, its bar timer closing bars. */
  readonly lastAt: number;
}

/** True when the recording holds order books of `market` (what `--fill-model book` fills against). */
export async function recordingHasBooks(path: string, market: MarketSymbol): Promise<boolean> {
  for await (const entry of readRecording(path)) if (entry.stream === `book:${market}`) return true;
  return false;
}

/** Decodes the market events of `market` (problems named by line, all at once, as for price files). */
export async function loadRecordedMarket(path: string, market: MarketSymbol): Promise<RecordedMarket> {
  const decoder = new ResponseDecoder();
  const problems: PriceProblem[] = [];
  const steps: { at: number; events: MarketEvent[] }[] = [];
  let books = 0;
  let hasPrices = false;
  let lastAt = -Infinity;
  const warmUp = await WarmUpCollector.of(path, market);
  const trades: RecordedTrade[] = [];
  const tapes: { at: number; trades: readonly TapeTrade[] }[] = [];
  let tradesPolled = false;
  let lastRecorded = -Infinity;
  for await (const entry of readRecording(path)) {
    if (entry.at > lastRecorded) lastRecorded = entry.at;
    const id = parseStreamName(entry.stream);
    if (id === undefined || !['book', 'ticker', 'prices', 'quotes', 'history', 'trades'].includes(id.kind)) continue;
    if (id.market !== undefined && id.market !== market) continue;
    if (id.kind === 'trades') {
      try {
        tradesPolled = true;
        trades.push(...tradesFromWire(entry.body));
        const tape = decoder.decode(id, entry.body, entry.at).trades;
        if (tape !== undefined) tapes.push({ at: entry.at, trades: tape.trades });
      } catch (err) {
        problems.push({
          line: entry.line,
          where: `line ${entry.line}`,
          message: `the trades response does not decode: ${(err as Error).message}`,
        });
      }
      continue;
    }
    if (id.kind === 'history') {
      warmUp.add(decoder, id, entry, problems);
      continue;
    }
    let events: readonly MarketEvent[];
    try {
      events = decoder.decode(id, entry.body, entry.at).market.filter((e) => e.market === market);
    } catch (err) {
      problems.push({
        line: entry.line,
        where: `line ${entry.line}`,
        message: `the ${id.kind} response does not decode: ${(err as Error).message}`,
      });
      continue;
    }
    if (events.length === 0) continue;
    if (entry.at < lastAt) {
      problems.push({
        line: entry.line,
        where: `line ${entry.line}`,
        message: `time ${new Date(entry.at).toISOString()} is earlier than the response before it`,
      });
      continue;
    }
    books += events.filter((e) => e.kind === 'book').length;
    hasPrices ||= events.some((e) => e.kind === 'price');
    const last = steps[steps.length - 1];
    if (last !== undefined && last.at === entry.at) last.events.push(...events);
    else steps.push({ at: entry.at, events: [...events] });
    lastAt = entry.at;
  }
  if (problems.length > 0) throw new PriceDataError(path, problems.slice(0, MAX_LISTED_PROBLEMS), problems.length);
  if (books === 0)
    throw new InputError(
      '--fill-model',
      `${path} holds no order books of ${market}, so nothing to fill against: use --fill-model points (fills at the recorded prices), or record a run whose strategy needs books`,
    );
  const warm = warmUp.result();
  return {
    market,
    steps,
    books,
    hasPrices,
    warmUp: warm.events,
    warmUpFrom: warm.from,
    trades: trades.sort((a, b) => a.at - b.at),
    tradesPolled,
    tapes,
    lastAt: lastRecorded,
  };
}
