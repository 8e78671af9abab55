/**
 * The unit verify's warm-up check speaks in. A strategy of price points warms up on points, and its
 * `warmUp` (or its longest period-like param) says how many. A bar strategy warms up on bars: what it
 * needs is its declared bar series filled, and the live warm-up loads history for exactly that (each
 * series' `history` bars and the bar open now), so its warm-up is read from `history` and said in
 * bars of its longest series; a number of points would mean a different span on every file's spacing.
 */
import { DEFAULT_BAR_CAPACITY, parseTimeframe, type BarNeed } from '../../src/bars/index.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import type { WarmUp } from '../warm-up-note.js';

export interface WarmUpUnit {
  /** The warm-up the plugin declares, in points of this data. */
  readonly points: number;
  /** "15 points", or "1,680 points (6 4h bars)". */
  describe(points: number): string;
  /** What the declaration says, as the subject of a sentence ("the declared warmUp of 15 points"). */
  readonly declared: string;
  /** The declaration that gives at least `points` of warm-up on this data. */
  declaration(points: number): string;
}

/** The longest declared bar series (by the time its history spans), or undefined for a strategy of points. */
export function longestNeed(needs: readonly BarNeed[]): { need: BarNeed; barMs: number; history: number } | undefined {
  let best: { need: BarNeed; barMs: number; history: number } | undefined;
  for (const need of needs) {
    const barMs = parseTimeframe(need.timeframe).ms;
    const history = need.history ?? DEFAULT_BAR_CAPACITY;
    if (best === undefined || history * barMs > best.history * best.barMs) best = { need, barMs, history };
  }
  return best;
}

/** The usual spacing of a series' points (the median gap of its first thousand), ms; 0 when it has fewer than two. */
export function spacingOf(series: PriceSeriesLike): number {
  const n = Math.min(series.length, 1_001);
  if (n < 2) return 0;
  const gaps: number[] = [];
  for (let i = 1; i < n; i++) gaps.push(series.times[i]! - series.times[i - 1]!);
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)]!;
}

/** The unit of a strategy of points: its declared or param-read warm-up. */
export function pointUnit(declared: WarmUp | undefined): WarmUpUnit {
  const points = declared?.points ?? 0;
  return {
    points,
    describe: (p) => plural(p, 'point'),
    declared:
      declared === undefined
        ? 'no warm-up at all (the plugin declares no warmUp and has no period-like param)'
        : declared.param !== undefined
          ? `the warm-up of ${plural(points, 'point')} read from ${declared.param}=${points}`
          : `the declared warmUp of ${plural(points, 'point')}`,
    declaration: (p) =>
      declared?.param !== undefined && declared.points > 0
        ? `warmUp: (p) => ${Math.ceil(p / declared.points)} * p.${declared.param}`
        : `warmUp: () => ${p}`,
  };
}

/**
 * The unit of a bar strategy on data spaced `spacingMs` apart: its longest series' `history` bars
 * (plus the bar open now) in points, said in bars; the declaration to write is a larger `history`.
 */
export function barUnit(longest: { need: BarNeed; barMs: number; history: number }, spacingMs: number): WarmUpUnit {
  const { need, barMs, history } = longest;
  const perBar = barMs / Math.max(spacingMs, 1);
  const barsIn = (points: number): number => Math.ceil(points / perBar);
  const series = `${need.timeframe} bars of ${need.market}`;
  return {
    points: Math.ceil((history + 1) * perBar),
    describe: (p) => `${plural(p, 'point')} (${plural(barsIn(p), need.timeframe + ' bar')})`,
    declared: `${need.history === undefined ? 'the default history' : 'the declared history'} of ${plural(history, 'bar')} for the ${series}`,
    declaration: (p) =>
      `history: ${barsIn(p)} on the ${series} (bars: [{ market: '${need.market}', timeframe: '${need.timeframe}', history: ${barsIn(p)} }])`,
  };
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
