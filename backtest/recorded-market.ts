/**
 * The book fill model's data: a stream recording's market events of one market (books, tickers,
 * prices, quotes, warm-up history and recorded trades), the rule the book model fills by, and which
 * fill model a backtest uses. The replay itself is built by driver.ts and stepped by book-run.ts.
 */
import { InputError, type MarketEvent, type MarketSymbol } from '../src/core/index.js';
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
  let tradesPolled = false;
  for await (const entry of readRecording(path)) {
    const id = parseStreamName(entry.stream);
    if (id === undefined || !['book', 'ticker', 'prices', 'quotes', 'history', 'trades'].includes(id.kind)) continue;
    if (id.market !== undefined && id.market !== market) continue;
    if (id.kind === 'trades') {
      try {
        tradesPolled = true;
        trades.push(...tradesFromWire(entry.body));
      } catch (err) {
        problems.push({ line: entry.line, where: `line ${entry.line}`, message: `the trades response does not decode: ${(err as Error).message}` });
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
      problems.push({ line: entry.line, where: `line ${entry.line}`, message: `the ${id.kind} response does not decode: ${(err as Error).message}` });
      continue;
    }
    if (events.length === 0) continue;
    if (entry.at < lastAt) {
      problems.push({ line: entry.line, where: `line ${entry.line}`, message: `time ${new Date(entry.at).toISOString()} is earlier than the response before it` });
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
  if (books === 0) throw new InputError('--fill-model', `${path} holds no order books of ${market}, so nothing to fill against: use --fill-model points (fills at the recorded prices), or record a run whose strategy needs books`);
  const warm = warmUp.result();
  return { market, steps, books, hasPrices, warmUp: warm.events, warmUpFrom: warm.from, trades: trades.sort((a, b) => a.at - b.at), tradesPolled };
}

/** The rule the report and manifest state for the book model (docs/backtest.md says it in full). */
export const BOOK_FILL_RULE =
  'Orders reach the venue the latency after the decision and meet the recorded book in force then: a market order walks the levels '
  + '(one fill per level at its price; what the book cannot fill is cancelled), a limit order takes the levels that cross it and rests the rest '
  + '(a post-only one that would take is rejected); a resting limit fills at its own price when a later recorded book\'s opposite side crosses it, '
  + 'up to the amount there, and when a recorded trade goes at or through its price, up to the trade\'s amount; our fills take liquidity until '
  + 'the next recorded book. A stop sell fires when a recorded book\'s mid reaches its stop price, then walks the bids (STOP_MARKET) or becomes '
  + 'a limit sell (STOP_LIMIT); GTT orders expire; held-rate quotes execute at their recorded price until they expire; transfers settle at once.';

/**
 * The book rule as it applied to one recording: whether resting limits could fill on recorded trades
 * (`trades`), the run polled trades but none happened (`none-happened`), or it did not poll them.
 */
export function bookFillRule(trades: 'trades' | 'none-happened' | 'not-recorded'): string {
  if (trades === 'trades') return BOOK_FILL_RULE;
  const why = trades === 'none-happened' ? 'the recorded trades stream saw no trade of the market' : 'this recording holds no trades (record with streams.trades_ms)';
  return `${BOOK_FILL_RULE} Here ${why}, so resting limits filled only when the opposite side crossed them.`;
}

export type FillModel = 'book' | 'points';

export interface FillModelFlags {
  readonly data?: string;
  readonly fillModel?: string;
  readonly latencyMs?: string;
  readonly slippageBps?: string;
  readonly robustness?: string;
  readonly market?: string;
  readonly from?: string;
  readonly to?: string;
  readonly priceColumn?: string;
}

/**
 * Which fill model a backtest uses: `--fill-model` when given, else book for a recording that holds
 * books of the market, points otherwise; flags that do not apply to the model are refused, naming it.
 */
export async function resolveFillModel(flags: FillModelFlags, isRecording: boolean, market: MarketSymbol | undefined): Promise<{ model: FillModel; latencyMs?: number }> {
  const asked = flags.fillModel;
  if (asked !== undefined && asked !== 'book' && asked !== 'points') throw new InputError('--fill-model', `${JSON.stringify(asked)} is not a fill model: use book (fill against a recording's order books) or points`);
  if (asked === 'book' && !isRecording) throw new InputError('--fill-model', 'book fills against the order books of a stream recording: give --data RECORDING (a file a run wrote with streams.record), or use --fill-model points');
  const model: FillModel = asked ?? (isRecording && market !== undefined && flags.data !== undefined && (await recordingHasBooks(flags.data, market)) ? 'book' : 'points');
  if (model === 'points') {
    if (flags.latencyMs !== undefined) throw new InputError('--latency-ms', 'applies to --fill-model book (the point model acts one point later); add --fill-model book with a recording, or drop the flag');
    return { model };
  }
  if (flags.market !== undefined) throw new InputError('--data', 'give either --data FILE or --market MARKET (with cached prices), not both or neither');
  if (flags.from !== undefined || flags.to !== undefined) throw new InputError('--from', '--from and --to select cached prices with --market; trim the --data file instead');
  if (flags.priceColumn !== undefined) throw new InputError('--price-column', `${flags.data!} is a stream recording: the book model replays its recorded events; --price-column picks a column of a CSV file`);
  if (flags.slippageBps !== undefined) throw new InputError('--slippage-bps', 'the book model fills at the recorded levels, so the book is the slippage; drop the flag, or use --fill-model points');
  if (flags.robustness !== undefined) throw new InputError('--robustness', 'is computed on the point model for now; add --fill-model points to this run');
  const raw = flags.latencyMs ?? '0';
  if (!/^\d{1,9}$/.test(raw)) throw new InputError('--latency-ms', `expected whole milliseconds from 0, e.g. 250, got ${JSON.stringify(raw)}`);
  return { model, latencyMs: Number(raw) };
}
