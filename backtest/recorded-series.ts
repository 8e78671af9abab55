/**
 * A recorded live run (a file the polling streams wrote with `streams.record`) as backtest points.
 * The same decoder as the live source turns each recorded response into market events; the points
 * of one market are its `price` events (the prices stream), or, when the run did not poll prices,
 * the mids of its order books, or else of its tickers. Each point is stamped with the local receive
 * time the recording kept. The backtest trades on what the live run could have traded on.
 *
 * The warm-up history the live run loaded before its first decision comes with the points, so the
 * replay warms the strategy on it first, as the run did live (and as the book model does): the prices
 * the recording's header holds, else (recordings from before headers held them) its `history:`
 * responses of the market, else none (the strategy starts cold at the first point).
 *
 * Nothing is dropped: a response that does not decode, or points out of time order, are reported
 * with the line of the file, all at once, as for price files.
 */
import { InputError, type MarketEvent, type MarketSymbol } from '../src/core/index.js';
import { loadPriceFile } from './price-column.js';
import { MAX_LISTED_PROBLEMS, PriceDataError, type PriceProblem, type PriceSeries } from '../src/sim/prices/price-file.js';
import { ResponseDecoder } from '../src/venue/polling/decode.js';
import { isRecordingFile } from '../src/venue/polling/recording-format.js';
import { headerWarmUp, readRecording, readRecordingHeader } from '../src/venue/polling/recording-reader.js';
import { parseStreamName } from '../src/venue/polling/stream-names.js';

type Source = 'prices' | 'book' | 'ticker';
const PREFERENCE: readonly Source[] = ['prices', 'book', 'ticker'];

export { isRecordingFile } from '../src/venue/polling/recording-format.js';

interface Points {
  readonly times: number[];
  readonly prices: number[];
  readonly lines: number[];
}

/** Where a replay's warm-up came from: the header's prices, the `history:` lines (older recordings), or none. */
export type WarmUpSource = 'header' | 'history' | 'none';

/** The warm-up history a recorded run loaded before its first decision, oldest first. */
export interface RecordedWarmUp {
  readonly events: readonly MarketEvent[];
  readonly from: WarmUpSource;
}

/**
 * Collects the warm-up of one market while a recording is read: the header's prices when it holds
 * them (the `history:` lines are then ignored), else the decoded `history:` responses of the market.
 */
export class WarmUpCollector {
  private readonly history: MarketEvent[] = [];

  private constructor(private readonly fromHeader: MarketEvent[] | undefined) {}

  static async of(path: string, market: MarketSymbol): Promise<WarmUpCollector> {
    return new WarmUpCollector(headerWarmUp(await readRecordingHeader(path), market));
  }

  /** Takes one `history:` response of the market; a response that does not decode is a problem of its line. */
  add(
    decoder: ResponseDecoder,
    id: NonNullable<ReturnType<typeof parseStreamName>>,
    entry: { readonly line: number; readonly at: number; readonly body: unknown },
    problems: PriceProblem[],
  ): void {
    if (this.fromHeader !== undefined) return;
    try {
      this.history.push(...decoder.decode(id, entry.body, entry.at).market);
    } catch (err) {
      problems.push({
        line: entry.line,
        where: `line ${entry.line}`,
        message: `the warm-up history does not decode: ${(err as Error).message}`,
      });
    }
  }

  result(): RecordedWarmUp {
    if (this.fromHeader !== undefined) return { events: this.fromHeader, from: 'header' };
    return this.history.length > 0 ? { events: this.history.sort((a, b) => a.at - b.at), from: 'history' } : { events: [], from: 'none' };
  }
}

/** A recording's points, with the warm-up history the recorded run loaded before them. */
export interface RecordedSeries extends PriceSeries {
  readonly warmUp: RecordedWarmUp;
}

/** Loads the points of `market` from a recording; throws InputError or PriceDataError naming lines. */
export async function loadRecordedSeries(path: string, market: string): Promise<RecordedSeries> {
  const found = new Map<string, Map<Source, Points>>();
  const problems: PriceProblem[] = [];
  const decoder = new ResponseDecoder();
  const warmUp = await WarmUpCollector.of(path, market as MarketSymbol);
  for await (const entry of readRecording(path)) {
    const id = parseStreamName(entry.stream);
    if (id === undefined) {
      problems.push({
        line: entry.line,
        where: `line ${entry.line}`,
        message: `unknown stream ${JSON.stringify(entry.stream)}: a recording from another version of tradeloop?`,
      });
      continue;
    }
    if (id.kind === 'history') {
      if (id.market === market) warmUp.add(decoder, id, entry, problems);
      continue;
    }
    if (id.kind !== 'prices' && id.kind !== 'book' && id.kind !== 'ticker') continue;
    let events: readonly MarketEvent[];
    try {
      events = decoder.decode(id, entry.body, entry.at).market;
    } catch (err) {
      problems.push({
        line: entry.line,
        where: `line ${entry.line}`,
        message: `the ${id.kind} response does not decode: ${(err as Error).message}`,
      });
      continue;
    }
    for (const e of events) {
      const price = pointPrice(e);
      if (price !== undefined) pointsOf(found, e.market, id.kind).push(e.at, price, entry.line);
    }
  }
  const chosen = choose(found, market, path);
  checkOrder(chosen.points, problems);
  if (problems.length > 0) throw new PriceDataError(path, problems.slice(0, MAX_LISTED_PROBLEMS), problems.length);
  const { times, prices } = chosen.points;
  return {
    source: `${path} (recorded ${market} ${chosen.source === 'prices' ? 'prices' : `${chosen.source} mids`})`,
    length: times.length,
    times: Float64Array.from(times),
    prices: Float64Array.from(prices),
    warmUp: warmUp.result(),
  };
}

/** The price a market event gives a point: a price, or the mid of a book's or ticker's best levels. */
function pointPrice(e: MarketEvent): number | undefined {
  if (e.kind === 'price') return e.price;
  if (e.kind === 'book') return mid(e.bids[0]?.price, e.asks[0]?.price);
  if (e.kind === 'ticker') return mid(e.bid?.price, e.ask?.price);
  return undefined;
}

function mid(bid: number | undefined, ask: number | undefined): number | undefined {
  return bid !== undefined && ask !== undefined && bid > 0 && ask > 0 ? (bid + ask) / 2 : undefined;
}

function pointsOf(
  found: Map<string, Map<Source, Points>>,
  market: string,
  source: Source,
): { push(at: number, price: number, line: number): void } {
  let bySource = found.get(market);
  if (bySource === undefined) found.set(market, (bySource = new Map()));
  let p = bySource.get(source);
  if (p === undefined) bySource.set(source, (p = { times: [], prices: [], lines: [] }));
  const points = p;
  return {
    push: (at, price, line) => {
      points.times.push(at);
      points.prices.push(price);
      points.lines.push(line);
    },
  };
}

function choose(found: Map<string, Map<Source, Points>>, market: string, path: string): { source: Source; points: Points } {
  const bySource = found.get(market);
  for (const source of PREFERENCE) {
    const points = bySource?.get(source);
    if (points !== undefined && points.times.length > 0) return { source, points };
  }
  const markets = [...found.keys()].sort();
  const has = markets.length === 0 ? 'no prices, books or tickers at all' : `prices for ${markets.join(', ')} only`;
  throw new InputError(
    'data',
    `${path} is a recording with ${has}, none for ${market}: record a run that subscribes to ${market}, or backtest a strategy that trades ${markets[0] ?? 'the recorded market'} (--params market=…)`,
  );
}

/** Points must be strictly later than the one before (the recording's receive times). */
function checkOrder(p: Points, problems: PriceProblem[]): void {
  for (let i = 1; i < p.times.length; i++) {
    const [prev, at] = [p.times[i - 1]!, p.times[i]!];
    if (at > prev) continue;
    const line = p.lines[i]!;
    problems.push({
      line,
      where: `line ${line}`,
      message:
        at === prev
          ? `a second point at ${new Date(at).toISOString()} (line ${p.lines[i - 1]!} has the same time)`
          : `time ${new Date(at).toISOString()} is earlier than the point before it (line ${p.lines[i - 1]!})`,
    });
  }
}

/**
 * A `--data` file for backtest and optimize: a stream recording (by its header) replays the points
 * of `market`; anything else loads as a price file (CSV or List Historical Prices JSON).
 */
export async function loadDataFile(file: string, market: string | undefined, priceColumn?: string): Promise<PriceSeries> {
  if (!isRecordingFile(file)) return loadPriceFile(file, priceColumn);
  if (priceColumn !== undefined)
    throw new InputError(
      '--price-column',
      `${file} is a stream recording: its points are the recorded prices (or book mids); --price-column picks a column of a CSV file`,
    );
  if (market === undefined)
    throw new InputError(
      '--data',
      `${file} is a stream recording: backtest a strategy with one market to say which market's points to replay`,
    );
  return loadRecordedSeries(file, market);
}
