/**
 * Monte Carlo robustness of a backtest (`tradeloop backtest --robustness N`): how much of a result is
 * the order and luck of its trades. Three resamplings, each run N times from one seeded Rng:
 *
 * - **trade-shuffle**: the round trips in a random order (a permutation). Each trip's return on the
 *   account, r_j = pnl_j / (E_0 + Σ_{k<j} pnl_k) as it happened, is compounded in the new order:
 *   the final equity cannot change (a product does not care about order), the drawdown can.
 * - **trade-bootstrap**: as many trips as the run had, drawn with replacement from its trips.
 * - **return-block-bootstrap**: the per-point returns r_i = E_i / E_{i−1} − 1 cut into circular blocks
 *   of L points (default L = round(m^⅓), m returns) drawn with replacement until m returns are laid,
 *   so that runs of gains and losses (volatility clusters, open positions) survive.
 *
 * Each simulated path starts at E_0 and gives its final equity, its max drawdown (as in metrics.ts,
 * over the path's points: closed trips for the trade methods, every point for the returns) and its
 * Sharpe ratio: mean(r) / sd(r) × √K (sample sd, risk-free 0), K = trips per year for the trade
 * methods (trips / the run's years) and the points' periods per year for the returns. The probability
 * of ruin is the share of paths whose max drawdown reached the threshold (`--ruin-pct`, default 50 %).
 * Percentiles interpolate linearly between order statistics (x at rank (n − 1)·p, numpy's default).
 * These are statistics over returns, so they are doubles; money stays decimal in the run itself.
 */
import { InputError, Rng } from '../../src/core/index.js';
import { YEAR_MS } from '../metrics.js';

/** The percentiles every distribution reports. */
export const PERCENTILES = [5, 25, 50, 75, 95] as const;

export type MonteCarloMethod = 'trade-shuffle' | 'trade-bootstrap' | 'return-block-bootstrap';

/** A distribution over the simulated paths: order statistics and a histogram for the chart. */
export interface Distribution {
  /** Paths where the figure is defined (Sharpe is undefined for a flat path). */
  readonly count: number;
  readonly mean: number | null;
  readonly min: number | null;
  readonly max: number | null;
  /** p5, p25, p50, p75, p95 (null without values). */
  readonly percentiles: Readonly<Record<`p${(typeof PERCENTILES)[number]}`, number | null>>;
  /** Equal-width bins from `from`, `width` wide; `counts[k]` paths fell in bin k. */
  readonly histogram: { readonly from: number; readonly width: number; readonly counts: readonly number[] };
}

export interface MethodResult {
  readonly method: MonteCarloMethod;
  readonly runs: number;
  readonly finalEquity: Distribution;
  readonly maxDrawdownPct: Distribution;
  readonly sharpe: Distribution;
  /** Share of paths (0 … 1) whose max drawdown reached `ruinPct`. */
  readonly ruinProbability: number;
}

export interface MonteCarloInput {
  readonly initialEquity: number;
  /** Round-trip P&L in quote currency (decimal strings, as RoundTrip.pnl), in the order they closed. */
  readonly tradePnls: readonly string[];
  /** The run's marked equity at every point. */
  readonly equity: Float64Array;
  /** First and last point time (epoch ms), for trips per year and periods per year. */
  readonly startAt: number;
  readonly endAt: number;
}

export interface MonteCarloOptions {
  readonly runs: number;
  readonly seed: number | string;
  /** Drawdown in percent that counts as ruin (default 50). */
  readonly ruinPct?: number;
  /** Points per block for the returns bootstrap (default round(m^⅓), at least 1). */
  readonly blockLength?: number;
  /** Histogram bins (default 30). */
  readonly bins?: number;
}

export interface MonteCarloResult {
  readonly runs: number;
  readonly seed: number | string;
  readonly ruinPct: number;
  readonly blockLength: number;
  readonly initialEquity: number;
  /** One entry per method that could run (the trade methods need round trips; the returns, two points). */
  readonly methods: readonly MethodResult[];
  /** Why a method was left out, for the reader. */
  readonly notes: readonly string[];
}

/** Raw per-path figures of one method (exported for tests and for callers that want their own statistics). */
export interface PathFigures {
  readonly finalEquity: Float64Array;
  readonly maxDrawdownPct: Float64Array;
  /** NaN where undefined. */
  readonly sharpe: Float64Array;
}

/** Largest number of paths one run accepts: a million-point series at 10,000 paths is already 10¹⁰ steps. */
export const MAX_RUNS = 100_000;

/** Runs every method that applies; the same input, options and seed give the same result. */
export function monteCarlo(input: MonteCarloInput, opts: MonteCarloOptions): MonteCarloResult {
  checkOptions(opts);
  const ruinPct = opts.ruinPct ?? 50;
  const m = input.equity.length - 1;
  const blockLength = Math.min(Math.max(1, m), opts.blockLength ?? Math.max(1, Math.round(Math.cbrt(m))));
  const rng = new Rng(opts.seed);
  const methods: MethodResult[] = [];
  const notes: string[] = [];
  const tradeReturns = tradeReturnsOf(input.initialEquity, input.tradePnls);
  const years = (input.endAt - input.startAt) / YEAR_MS;
  const summarise = (method: MonteCarloMethod, f: PathFigures): MethodResult => summaryOf(method, f, ruinPct, opts.bins ?? 30);
  if (tradeReturns.length === 0) notes.push('no completed round trip: the trade resamplings need at least one');
  else {
    const perYear = years > 0 ? tradeReturns.length / years : null;
    methods.push(summarise('trade-shuffle', tradePaths(tradeReturns, input.initialEquity, perYear, opts.runs, rng.fork('shuffle'), false)));
    methods.push(
      summarise('trade-bootstrap', tradePaths(tradeReturns, input.initialEquity, perYear, opts.runs, rng.fork('bootstrap'), true)),
    );
  }
  if (m < 1) notes.push('a single point has no return: the returns bootstrap needs two points');
  else {
    const returns = pointReturns(input.equity);
    const perYear = input.endAt > input.startAt ? YEAR_MS / ((input.endAt - input.startAt) / m) : null;
    methods.push(
      summarise('return-block-bootstrap', blockPaths(returns, input.initialEquity, perYear, blockLength, opts.runs, rng.fork('blocks'))),
    );
  }
  return { runs: opts.runs, seed: opts.seed, ruinPct, blockLength, initialEquity: input.initialEquity, methods, notes };
}

function checkOptions(opts: MonteCarloOptions): void {
  if (!Number.isInteger(opts.runs) || opts.runs < 1 || opts.runs > MAX_RUNS)
    throw new InputError(
      '--robustness',
      `expected a whole number of Monte Carlo runs from 1 to ${MAX_RUNS} such as 1000, got ${opts.runs}`,
    );
  if (opts.ruinPct !== undefined && !(opts.ruinPct > 0 && opts.ruinPct <= 100))
    throw new InputError('--ruin-pct', `expected a drawdown percent above 0 and at most 100 such as 50, got ${opts.ruinPct}`);
  if (opts.blockLength !== undefined && !(Number.isInteger(opts.blockLength) && opts.blockLength >= 1))
    throw new InputError('--block-length', `expected a whole number of points ≥ 1, got ${opts.blockLength}`);
}

/** r_j = pnl_j / (E_0 + Σ_{k<j} pnl_k): each trip's return on the account as it stood before it. */
export function tradeReturnsOf(initialEquity: number, pnls: readonly string[]): Float64Array {
  const out = new Float64Array(pnls.length);
  let equity = initialEquity;
  for (let j = 0; j < pnls.length; j++) {
    const pnl = Number(pnls[j]);
    out[j] = equity > 0 ? pnl / equity : 0;
    equity += pnl;
  }
  return out;
}

/** r_i = E_i / E_{i−1} − 1 (0 after a point at zero equity). */
export function pointReturns(equity: Float64Array): Float64Array {
  const out = new Float64Array(Math.max(0, equity.length - 1));
  for (let i = 1; i < equity.length; i++) out[i - 1] = equity[i - 1]! > 0 ? equity[i]! / equity[i - 1]! - 1 : 0;
  return out;
}

/** One path's running figures: compounding, peak, worst drawdown and the return moments (Welford). */
class PathWalker {
  equity = 0;
  private peak = 0;
  worst = 0;
  private n = 0;
  private mean = 0;
  private m2 = 0;

  reset(e0: number): void {
    this.equity = this.peak = e0;
    this.worst = this.n = this.mean = this.m2 = 0;
  }

  step(r: number): void {
    const e = this.equity * (1 + r);
    this.equity = e > 0 ? e : 0;
    if (this.equity > this.peak) this.peak = this.equity;
    else if (this.peak > 0 && (this.peak - this.equity) / this.peak > this.worst) this.worst = (this.peak - this.equity) / this.peak;
    this.n++;
    const delta = r - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (r - this.mean);
  }

  sharpe(perYear: number | null): number {
    if (this.n < 2 || perYear === null) return Number.NaN;
    const sd = Math.sqrt(this.m2 / (this.n - 1));
    return sd > 0 ? (this.mean / sd) * Math.sqrt(perYear) : Number.NaN;
  }
}

function newFigures(runs: number): PathFigures {
  return { finalEquity: new Float64Array(runs), maxDrawdownPct: new Float64Array(runs), sharpe: new Float64Array(runs) };
}

function record(f: PathFigures, k: number, w: PathWalker, perYear: number | null): void {
  f.finalEquity[k] = w.equity;
  f.maxDrawdownPct[k] = w.worst * 100;
  f.sharpe[k] = w.sharpe(perYear);
}

/** Paths from the trips' returns: a Fisher–Yates permutation each run, or draws with replacement. */
export function tradePaths(
  returns: Float64Array,
  e0: number,
  perYear: number | null,
  runs: number,
  rng: Rng,
  withReplacement: boolean,
): PathFigures {
  const f = newFigures(runs);
  const w = new PathWalker();
  const n = returns.length;
  const order = Float64Array.from(returns);
  for (let k = 0; k < runs; k++) {
    w.reset(e0);
    if (withReplacement) {
      for (let j = 0; j < n; j++) w.step(returns[rng.int(0, n - 1)]!);
    } else {
      for (let j = n - 1; j > 0; j--) {
        const i = rng.int(0, j);
        const t = order[j]!;
        order[j] = order[i]!;
        order[i] = t;
      }
      for (let j = 0; j < n; j++) w.step(order[j]!);
    }
    record(f, k, w, perYear);
  }
  return f;
}

/**
 * Paths from circular blocks of `block` returns, each starting at a uniform point, until m returns are
 * laid. The inner loop keeps its state in locals (a million points × a thousand paths is 10⁹ steps);
 * the moments are Σr and Σr², exact enough for per-point returns.
 */
export function blockPaths(returns: Float64Array, e0: number, perYear: number | null, block: number, runs: number, rng: Rng): PathFigures {
  const f = newFigures(runs);
  const m = returns.length;
  for (let k = 0; k < runs; k++) {
    let equity = e0;
    let peak = e0;
    let worst = 0;
    let sum = 0;
    let sumSq = 0;
    for (let laid = 0; laid < m;) {
      let i = rng.int(0, m - 1);
      const take = Math.min(block, m - laid);
      for (let j = 0; j < take; j++) {
        const r = returns[i]!;
        sum += r;
        sumSq += r * r;
        equity *= 1 + r;
        if (equity > peak) peak = equity;
        else if (peak - equity > worst * peak) worst = (peak - equity) / peak;
        i = i + 1 === m ? 0 : i + 1;
      }
      laid += take;
    }
    f.finalEquity[k] = equity > 0 ? equity : 0;
    f.maxDrawdownPct[k] = worst * 100;
    f.sharpe[k] = sharpeOf(sum, sumSq, m, perYear);
  }
  return f;
}

/** mean / sample sd × √K from Σr and Σr² over n returns (NaN when undefined). */
function sharpeOf(sum: number, sumSq: number, n: number, perYear: number | null): number {
  if (n < 2 || perYear === null) return Number.NaN;
  const mean = sum / n;
  const spread = sumSq - n * mean * mean;
  // a flat path leaves only rounding in the spread: treat it as none
  if (!(spread > 1e-12 * sumSq)) return Number.NaN;
  return (mean / Math.sqrt(spread / (n - 1))) * Math.sqrt(perYear);
}

function summaryOf(method: MonteCarloMethod, f: PathFigures, ruinPct: number, bins: number): MethodResult {
  let ruined = 0;
  for (const dd of f.maxDrawdownPct) if (dd >= ruinPct - 1e-9) ruined++;
  const runs = f.finalEquity.length;
  return {
    method,
    runs,
    finalEquity: distributionOf(f.finalEquity, bins),
    maxDrawdownPct: distributionOf(f.maxDrawdownPct, bins),
    sharpe: distributionOf(f.sharpe, bins),
    ruinProbability: ruined / runs,
  };
}

/** The linear-interpolation percentile of ascending `sorted` at p (0 … 100). */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Order statistics and histogram of the finite values (NaN, the undefined ones, left out). */
export function distributionOf(values: Float64Array, bins = 30): Distribution {
  const sorted = values.filter((v) => Number.isFinite(v)).sort();
  const n = sorted.length;
  let sum = 0;
  for (const v of sorted) sum += v;
  const percentiles = Object.fromEntries(PERCENTILES.map((p) => [`p${p}`, percentile(sorted, p)])) as Distribution['percentiles'];
  return {
    count: n,
    mean: n ? sum / n : null,
    min: n ? sorted[0]! : null,
    max: n ? sorted[n - 1]! : null,
    percentiles,
    histogram: histogramOf(sorted, bins),
  };
}

function histogramOf(sorted: Float64Array, bins: number): Distribution['histogram'] {
  const n = sorted.length;
  if (n === 0) return { from: 0, width: 0, counts: [] };
  const lo = sorted[0]!;
  const span = sorted[n - 1]! - lo;
  if (!(span > Math.abs(lo) * 1e-12)) return { from: lo, width: 0, counts: [n] };
  const width = span / bins;
  const counts = new Array<number>(bins).fill(0);
  for (const v of sorted) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1;
  return { from: lo, width, counts };
}
