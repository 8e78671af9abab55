/**
 * How likely the optimizer's best is luck, given how many trials were tried, and where its best sits.
 *
 * **Deflated Sharpe ratio** (Bailey and López de Prado, "The Deflated Sharpe Ratio", 2014): the
 * probability that the best trial's true Sharpe ratio is above zero once the selection among N trials
 * is accounted for. The best of N trials of a strategy with no edge has an expected Sharpe of
 *
 *   SR₀ = √V · ((1 − γ) Φ⁻¹(1 − 1/N) + γ Φ⁻¹(1 − 1/(N e)))      (γ the Euler–Mascheroni constant)
 *
 * with V the variance of the trials' Sharpe ratios, and
 *
 *   DSR = Φ((SR − SR₀) √(T − 1) / √(1 − γ₃ SR + (γ₄ − 1) / 4 · SR²))
 *
 * with SR the best's Sharpe ratio per period (not annualised), T its number of returns, γ₃ and γ₄
 * the skewness and kurtosis of its returns. The optimizer's jobs report no skewness or kurtosis, so
 * it takes normal returns (γ₃ = 0, γ₄ = 3), which overstates the DSR of fat-tailed or left-skewed
 * returns; the report says so. Above 0.95 the edge is unlikely to be luck; near 0.5 or below it is
 * what the best of that many tries of nothing would look like.
 */
import { phi } from '../search/tpe.js';

const EULER_GAMMA = 0.5772156649015329;

export interface DeflatedSharpeInput {
  /** The best trial's Sharpe ratio per period. */
  readonly sharpe: number;
  /** Returns behind it. */
  readonly periods: number;
  /** Trials tried. */
  readonly trials: number;
  /** Variance of the trials' per-period Sharpe ratios. */
  readonly variance: number;
  readonly skew?: number;
  /** Kurtosis (3 for normal returns). */
  readonly kurtosis?: number;
}

export interface DeflatedSharpe {
  /** Expected best Sharpe per period of `trials` tries of no edge. */
  readonly expectedMaxSharpe: number;
  /** Probability that the best's true Sharpe is above 0 given the trials (0..1). */
  readonly dsr: number;
}

export function deflatedSharpe(i: DeflatedSharpeInput): DeflatedSharpe {
  const n = Math.max(i.trials, 2);
  const sr0 = Math.sqrt(Math.max(i.variance, 0)) * ((1 - EULER_GAMMA) * normInv(1 - 1 / n) + EULER_GAMMA * normInv(1 - 1 / (n * Math.E)));
  const skew = i.skew ?? 0;
  const kurt = i.kurtosis ?? 3;
  const denom = Math.sqrt(Math.max(1 - skew * i.sharpe + ((kurt - 1) / 4) * i.sharpe ** 2, 1e-12));
  return { expectedMaxSharpe: sr0, dsr: phi(((i.sharpe - sr0) * Math.sqrt(Math.max(i.periods - 1, 0))) / denom) };
}

/** The standard normal quantile (Acklam's rational approximation; relative error below 1.2e-9). */
export function normInv(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number): number =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** A varied parameter and the values searched (a grid axis, or a search range). */
export type SearchedRange = { readonly name: string; readonly low: number; readonly high: number; readonly continuous: boolean };

export interface EdgeWarning {
  readonly param: string;
  readonly value: number;
  readonly edge: 'low' | 'high';
  readonly message: string;
}

/**
 * The best's parameters that sit on the edge of what was searched: a grid's first or last value, or
 * within 2 % of a search range's bound. The true best may lie beyond: widen that way.
 */
export function edgeWarnings(best: Readonly<Record<string, unknown>>, ranges: readonly SearchedRange[]): EdgeWarning[] {
  const out: EdgeWarning[] = [];
  for (const r of ranges) {
    const v = best[r.name];
    if (typeof v !== 'number' || !(r.high > r.low)) continue;
    const slack = r.continuous ? 0.02 * (r.high - r.low) : 0;
    const edge = v <= r.low + slack ? 'low' : v >= r.high - slack ? 'high' : undefined;
    if (edge === undefined) continue;
    const message = `the best ${r.name}=${v} is at the ${edge === 'low' ? 'bottom' : 'top'} of the searched range ${r.low}..${r.high}: the true best may lie beyond; widen it ${edge === 'low' ? 'downward' : 'upward'}`;
    out.push({ param: r.name, value: v, edge, message });
  }
  return out;
}
