/**
 * Indicator series a strategy draws (`ctx.plot`): the rules of a name and a value, and how a series is
 * declared to be drawn (`plots` on the definition). The engine keeps the points (src/engine/plots.ts);
 * the dashboard and the backtest report draw them over the market's price.
 */
import type { MarketSymbol } from '../core/index.js';

/** Where a series is drawn: over the price (a moving average, a channel) or in a pane of its own (an RSI). */
export type PlotPane = 'price' | 'own';

/** How a declared series is drawn (see `StrategyDefinition.plots`). */
export interface PlotStyle {
  /** Default 'price'. */
  readonly pane?: PlotPane;
  /** A CSS colour (e.g. "#e67e22"); default: one the chart picks. */
  readonly color?: string;
}

/** One series as the kernel keeps it: `points` oldest first, a null value for a gap. */
export interface PlotSeries {
  readonly strategy: string;
  readonly market: MarketSymbol;
  readonly name: string;
  readonly pane: PlotPane;
  readonly color?: string;
  readonly points: Array<[timeMs: number, value: number | null]>;
}

/** Names a strategy may plot per market. */
export const MAX_PLOTS_PER_MARKET = 8;
const PLOT_NAME = /^[A-Za-z0-9_ .-]{1,40}$/;
const COLOR = /^[#A-Za-z0-9(),.% -]{1,40}$/;

/** Why `name` is not a series name, or undefined when it is one. */
export function plotNameProblem(name: unknown): string | undefined {
  return typeof name === 'string' && PLOT_NAME.test(name)
    ? undefined
    : `the name ${JSON.stringify(name) ?? String(name)} is not a series name: give 1 to 40 characters of letters, digits, space, _ . -`;
}

/**
 * The value `ctx.plot` keeps for one call, or a TypeError naming the call and the fix: NaN, undefined
 * and null are "no value at this time" (a gap, kept as null); a finite number is kept; anything else
 * (Infinity, a string, a Decimal) is a strategy error. `known` says whether the series exists already
 * and `names` how many the strategy plots in that market (at most MAX_PLOTS_PER_MARKET).
 */
export function plotValue(market: unknown, name: unknown, value: unknown, known: boolean, names: number): number | null {
  // called for every point a strategy plots: the message is built only when there is a problem
  if (typeof market !== 'string' || market === '')
    throw plotError(market, name, value, 'the market must be a market symbol such as "BTCUSD"');
  if (!known) {
    const problem = plotNameProblem(name);
    if (problem !== undefined) throw plotError(market, name, value, problem);
    if (names >= MAX_PLOTS_PER_MARKET)
      throw plotError(
        market,
        name,
        value,
        `at most ${MAX_PLOTS_PER_MARKET} series per market may be plotted; plot fewer names in ${market}`,
      );
  }
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    if (Number.isNaN(value)) return null;
  } else if (value === undefined || value === null) return null;
  throw plotError(market, name, value, 'the value must be a finite number (NaN or undefined for no value at this time)');
}

function plotError(market: unknown, name: unknown, value: unknown, problem: string): TypeError {
  const shown = (v: unknown): string => {
    if (typeof v === 'string') return JSON.stringify(v);
    try {
      return String(v);
    } catch {
      return `an ${typeof v}`; // an object without toString
    }
  };
  return new TypeError(`ctx.plot(${shown(market)}, ${shown(name)}, ${shown(value)}): ${problem}`);
}

/** Problems of a `plots` declaration, each naming the field and the fix. */
export function plotStyleProblems(plots: unknown): string[] {
  if (plots === undefined) return [];
  if (typeof plots !== 'object' || plots === null || Array.isArray(plots))
    return ["plots: an object of series name → { pane?: 'price' | 'own'; color?: string }, or leave it out"];
  return Object.entries(plots as Record<string, unknown>).flatMap(([name, style]) => {
    const nameProblem = plotNameProblem(name);
    if (nameProblem !== undefined) return [`plots: ${nameProblem}`];
    if (typeof style !== 'object' || style === null) return [`plots.${name}: an object { pane?: 'price' | 'own'; color?: string }`];
    const { pane, color } = style as { pane?: unknown; color?: unknown };
    const out: string[] = [];
    if (pane !== undefined && pane !== 'price' && pane !== 'own')
      out.push(`plots.${name}.pane: 'price' or 'own', not ${JSON.stringify(pane)}`);
    if (color !== undefined && (typeof color !== 'string' || !COLOR.test(color)))
      out.push(`plots.${name}.color: a CSS colour such as "#e67e22", not ${JSON.stringify(color)}`);
    return out;
  });
}
