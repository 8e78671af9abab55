/**
 * The replay checks of `tradeloop verify`, each a comparison of decision lists (decisions.ts):
 *
 * - determinism: two runs of the same data give the same decisions (a module-level counter, the wall
 *   clock or Math.random in a plugin makes them part);
 * - look-ahead: at each cut point, the decisions up to the cut are the same when the data after it is
 *   removed (a plugin that reads a later price decides differently without it);
 * - warm-up: from a start point, the decisions are the same after the declared warm-up as after twice
 *   it and as after all the history before the start; if not, the smallest warm-up whose decisions
 *   equal those after all the history (in points, or in bars for a bar strategy: warm-up-unit.ts).
 */
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import type { MarketEvent, MarketSymbol } from '../../src/core/index.js';
import type { WarmUpUnit } from './warm-up-unit.js';
import { decisionsOf, firstDifference, headOf, type FirstDifference, type VerifyDecision, type VerifyRunConfig } from './decisions.js';

/** A check's outcome: passed, failed (with what to fix), or skipped (with why it could not run). */
export type Verdict = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  readonly check: 'determinism' | 'look-ahead' | 'warm-up' | 'params' | 'markets';
  readonly verdict: Verdict;
  /** One sentence: what was compared and what came of it. */
  readonly summary: string;
  /** Where the decisions first parted. */
  readonly difference?: FirstDifference;
  /** What the two compared runs were (the reference first), for the difference's lines. */
  readonly runs?: readonly [string, string];
  /** For the warm-up check: the declared warm-up, the stable one found, and the declaration to write. */
  readonly warmUp?: { readonly declared: number; readonly stable?: number; readonly declaration?: string };
  /** Problems found (the schema and market checks), one per line. */
  readonly problems?: readonly string[];
}

/**
 * Where verify takes its points from: the series, or only its first `end` points, as if the data ended
 * there. Asked again for each run (a source may hand each run its own view).
 */
export interface VerifySource {
  readonly length: number;
  open(end?: number): PriceSeriesLike;
}

/** A loaded series as a verify source (a cut is a view of its first points). */
export function seriesSource(series: PriceSeriesLike): VerifySource {
  return { length: series.length, open: (end) => (end === undefined ? series : headOf(series, end)) };
}

/** Fractions of the points at which look-ahead cuts the data. */
export const CUT_FRACTIONS = [0.25, 0.5, 0.75] as const;

/** Two runs of the whole data; returns the first run's decisions for the other checks to compare with. */
export async function checkDeterminism(
  cfg: VerifyRunConfig,
  source: VerifySource,
): Promise<{ result: CheckResult; decisions: VerifyDecision[] }> {
  const first = await decisionsOf(cfg, source.open());
  const second = await decisionsOf(cfg, source.open());
  const difference = firstDifference(first, second);
  const result: CheckResult =
    difference === undefined
      ? { check: 'determinism', verdict: 'pass', summary: `two runs made the same ${count(first.length)}` }
      : {
          check: 'determinism',
          verdict: 'fail',
          summary:
            'the second run decided differently from the first on the same data: the plugin keeps state between runs (a module-level variable) or reads the clock or Math.random; keep state inside create() and take time from ctx',
          difference,
          runs: ['first run', 'second run'],
        };
  return { result, decisions: first };
}

/** At each cut, the decisions up to it with the data after it removed against the whole run's. */
export async function checkLookAhead(cfg: VerifyRunConfig, source: VerifySource, whole: readonly VerifyDecision[]): Promise<CheckResult> {
  const cuts = [...new Set(CUT_FRACTIONS.map((f) => Math.floor(source.length * f)))].filter((c) => c >= 2 && c < source.length);
  if (cuts.length === 0)
    return { check: 'look-ahead', verdict: 'skip', summary: `${source.length} points are too few to cut: give at least 8` };
  for (const cut of cuts) {
    const head = source.open(cut);
    const last = head.times[cut - 1]!;
    const got = await decisionsOf(cfg, head);
    const difference = firstDifference(
      whole.filter((d) => d.at <= last),
      got,
    );
    if (difference !== undefined) {
      return {
        check: 'look-ahead',
        verdict: 'fail',
        summary: `with the data cut after point ${cut} of ${source.length} (${iso(last)}) the decisions up to the cut changed: the plugin reads prices it could not yet have seen`,
        difference,
        runs: ['all the data', `data cut after point ${cut}`],
      };
    }
  }
  return {
    check: 'look-ahead',
    verdict: 'pass',
    summary: `the decisions up to each of ${cuts.length} cut point(s) (${cuts.join(', ')} of ${source.length} points) are the same with the data after the cut removed`,
  };
}

/**
 * Decisions from a start point S after the declared warm-up W against after 2W and after all the
 * history before S. S is the middle of the data (at least 2W), so there is history before it to
 * compare with and decisions after it. The unit (warm-up-unit.ts) says W in points or, for a bar
 * strategy, in bars of its longest series.
 */
export async function checkWarmUp(
  cfg: VerifyRunConfig,
  source: VerifySource,
  market: MarketSymbol,
  unit: WarmUpUnit,
): Promise<CheckResult> {
  const w = unit.points;
  const doubled = Math.max(2 * w, 1);
  const series = source.open();
  const start = Math.min(Math.max(doubled, Math.floor(series.length / 2)), series.length - 2);
  if (start < doubled)
    return {
      check: 'warm-up',
      verdict: 'skip',
      summary: `${series.length} points are too few to test ${unit.declared}: the check needs twice it (${unit.describe(doubled)}) before a start point and decisions after that; give more than ${doubled + 2} points`,
      warmUp: { declared: w },
    };
  const run = (points: number): Promise<VerifyDecision[]> =>
    decisionsOf(cfg, tailOf(series, start), { events: priceEvents(series, market, start - points, start), from: 'history' });
  const base = await run(w);
  let difference = firstDifference(await run(doubled), base);
  let runs: [string, string] = [`${unit.describe(doubled)} of warm-up`, `${unit.describe(w)} of warm-up`];
  let full: VerifyDecision[] | undefined;
  if (difference === undefined && start > doubled) {
    // doubling alone misses an indicator that forgets slowly: all the history before the start is the reference
    full = await run(start);
    difference = firstDifference(full, base);
    runs = [`all ${start} points before the start`, `${unit.describe(w)} of warm-up`];
  }
  if (difference === undefined)
    return {
      check: 'warm-up',
      verdict: 'pass',
      summary: `the decisions from point ${start} are the same after ${unit.describe(w)} of warm-up as after ${unit.describe(doubled)}${start > doubled ? ` and after all ${start} points before it` : ''}`,
      warmUp: { declared: w },
    };
  full ??= await run(start);
  const stable = await smallestStable(run, full, w + 1, start);
  if (stable === undefined) {
    return {
      check: 'warm-up',
      verdict: 'fail',
      summary: `${unit.declared} is too short: the decisions from point ${start} change with more history, and no warm-up shorter than all ${start} points before the start gives the same decisions as all of them. The plugin depends on how much history it has seen (an indicator whose memory never ends); give more data to find a stable warm-up`,
      difference,
      runs,
      warmUp: { declared: w },
    };
  }
  const declaration = unit.declaration(stable);
  return {
    check: 'warm-up',
    verdict: 'fail',
    summary: `${unit.declared} is too short: the decisions from point ${start} change with more history, and ${unit.describe(stable)} of warm-up give the same decisions as all ${start} points before the start; declare ${declaration}`,
    difference,
    runs,
    warmUp: { declared: w, stable, declaration },
  };
}

/** The smallest warm-up in [low, high] whose decisions equal `reference` (searched by halving; the decisions settle as history grows). */
async function smallestStable(
  run: (points: number) => Promise<VerifyDecision[]>,
  reference: readonly VerifyDecision[],
  low: number,
  high: number,
): Promise<number | undefined> {
  let lo = low;
  let hi = high;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (firstDifference(reference, await run(mid)) === undefined) hi = mid;
    else lo = mid + 1;
  }
  // all the history is the reference itself: a warm-up of all of it proves nothing
  return lo >= high ? undefined : lo;
}

function tailOf(series: PriceSeriesLike, start: number): PriceSeriesLike {
  return {
    source: series.source,
    length: series.length - start,
    times: series.times.subarray(start),
    prices: series.prices.subarray(start),
  };
}

function priceEvents(series: PriceSeriesLike, market: MarketSymbol, from: number, to: number): MarketEvent[] {
  const out: MarketEvent[] = [];
  for (let i = Math.max(0, from); i < to; i++) out.push({ kind: 'price', market, at: series.times[i]!, price: series.prices[i]! });
  return out;
}

function count(n: number): string {
  return `${n} decision${n === 1 ? '' : 's'}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
