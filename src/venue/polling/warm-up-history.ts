import type { HistoricalPrices, Increment } from '../../api/index.js';
import type { Clock } from '../../clock/index.js';
import { InputError, isHistoricalMarket, type MarketEvent, type MarketSymbol } from '../../core/index.js';
import type { ResponseDecoder } from './decode.js';
import type { ResponseSink } from './recorder.js';
import type { RequestBudget } from './request-budget.js';
import type { MarketDataApi } from './stream-requests.js';

export interface WarmUpSettings {
  /** Bucket of the historical prices (default ONE_MINUTE). */
  readonly increment: Increment;
}

export interface WarmUpDeps {
  readonly api: MarketDataApi;
  readonly clock: Clock;
  readonly budget: RequestBudget;
  readonly recorder: ResponseSink | undefined;
  readonly decoder: ResponseDecoder;
  readonly settings: Partial<WarmUpSettings> | undefined;
}

/** Length of each increment the platform offers, ms. */
export const INCREMENT_MS: Readonly<Record<string, number>> = {
  ONE_MINUTE: 60_000,
  FIVE_MINUTES: 300_000,
  FIFTEEN_MINUTES: 900_000,
  THIRTY_MINUTES: 1_800_000,
  ONE_HOUR: 3_600_000,
  TWO_HOURS: 7_200_000,
  TWELVE_HOURS: 43_200_000,
  ONE_DAY: 86_400_000,
  ONE_WEEK: 604_800_000,
  TWO_WEEKS: 1_209_600_000,
  FOUR_WEEKS: 2_419_200_000,
};

/** Largest page of ListHistoricalPrices. */
const PAGE_LIMIT = 1000;
export const MAX_WARM_UP_POINTS = 1000;

/**
 * The latest `points` historical prices of each market as price events stamped with their own
 * (past) times, all markets merged oldest first, so indicators are ready before the first live
 * decision. Each response is recorded as stream `history:<market>` so a replay warms up alike.
 */
export async function loadWarmUp(markets: readonly MarketSymbol[], points: number, d: WarmUpDeps): Promise<readonly MarketEvent[]> {
  if (!Number.isInteger(points) || points < 0 || points > MAX_WARM_UP_POINTS) {
    throw new InputError('points', `expected an integer from 0 to ${MAX_WARM_UP_POINTS} (streams.warmup_points), got ${String(points)}`);
  }
  markets.forEach((m, i) => {
    if (!isHistoricalMarket(m))
      throw new InputError(`markets[${i}]`, `${JSON.stringify(m)} has no historical prices: use a market of HISTORICAL_MARKETS`);
  });
  const increment = d.settings?.increment ?? 'ONE_MINUTE';
  const incMs = INCREMENT_MS[increment];
  if (incMs === undefined)
    throw new InputError(
      'warmUp.increment',
      `unknown increment ${JSON.stringify(increment)}: use one of ${Object.keys(INCREMENT_MS).join(', ')}`,
    );
  if (points === 0 || markets.length === 0) return [];
  const perMarket = await Promise.all(markets.map((m) => loadMarket(m, points, increment, incMs, d)));
  return perMarket.flat().sort((a, b) => a.at - b.at);
}

async function loadMarket(
  market: MarketSymbol,
  points: number,
  increment: Increment,
  incMs: number,
  d: WarmUpDeps,
): Promise<MarketEvent[]> {
  const begin = new Date(d.clock.now() - points * incMs).toISOString();
  const query = { increment, 'range.begin': begin, 'pagination.limit': PAGE_LIMIT };
  let page = await fetchPage(market, query, d);
  const total = page.total_count ?? page.items.length;
  if (total > page.items.length && total > points) {
    page = await fetchPage(market, { ...query, 'pagination.offset': total - points }, d);
  }
  const at = d.clock.now();
  d.recorder?.write({ at, stream: `history:${market}`, body: page });
  const events = d.decoder.decode({ kind: 'history', market }, page, at).market;
  return events.length > points ? events.slice(events.length - points) : [...events];
}

async function fetchPage(market: MarketSymbol, query: Record<string, string | number>, d: WarmUpDeps): Promise<HistoricalPrices> {
  await d.budget.acquire('normal', 'ListHistoricalPrices');
  return d.api.listHistoricalPrices(market, query, { priority: 'normal' });
}
