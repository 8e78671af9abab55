/**
 * The tree-structured Parzen estimator (Bergstra et al., "Algorithms for Hyper-Parameter
 * Optimization", NeurIPS 2011), univariate as Optuna's TPESampler samples by default:
 *
 * - the first `startup` trials (10) are drawn at random;
 * - then the finished trials are split into the best γ(n) = min(⌈0.1 n⌉, 25) ("below") and the rest
 *   ("above"); per parameter, each group gives a Parzen density, l(x) and g(x): a mixture of normals
 *   truncated to the range, one at each observed value plus a prior at the centre with the range's
 *   width, each observation's width the larger gap to its sorted neighbours, clipped to
 *   [range / min(100, 1 + n), range] (Optuna's "magic clip"); log-scale ranges in log space;
 * - 24 candidates are drawn from l(x) and the one with the largest l(x) / g(x) (the expected
 *   improvement's maximiser) is kept; a choice parameter uses counts plus one (the prior) instead.
 *
 * Everything is derived from the finished trials and the seed, so a resumed study samples as if it
 * had never stopped. Lower loss is better; the caller turns "higher is better" metrics into losses.
 */
import type { GridValue } from '../optimize/grid.js';
import { type Dimension, fromUnit, randomTrial, type SearchSpace } from './space.js';

export interface Observed {
  readonly params: Readonly<Record<string, GridValue>>;
  /** Lower is better; null for a trial that failed or has no value (ranked worst). */
  readonly loss: number | null;
}

export interface TpeOptions {
  readonly startup?: number;
  readonly candidates?: number;
}

/** The next trial's parameters given the finished ones. */
export function tpeSuggest(
  space: SearchSpace,
  history: readonly Observed[],
  rand: () => number,
  opts: TpeOptions = {},
): Record<string, GridValue> {
  const startup = opts.startup ?? 10;
  if (history.length < startup) return randomTrial(space, rand);
  const sorted = [...history].sort((a, b) => (a.loss === null ? 1 : b.loss === null ? -1 : a.loss - b.loss));
  const nBelow = Math.min(Math.ceil(0.1 * sorted.length), 25);
  const below = sorted.slice(0, nBelow);
  const above = sorted.slice(nBelow);
  const out: Record<string, GridValue> = { ...space.fixed };
  for (const d of space.dimensions)
    out[d.name] =
      d.kind === 'choice'
        ? pickChoice(d, below, above, rand, opts.candidates ?? 24)
        : pickNumber(d, below, above, rand, opts.candidates ?? 24);
  return out;
}

type NumberDim = Extract<Dimension, { kind: 'number' }>;

function pickNumber(d: NumberDim, below: readonly Observed[], above: readonly Observed[], rand: () => number, n: number): number {
  const unit = (v: GridValue): number => {
    const x = Number(v);
    return d.log ? (Math.log(x) - Math.log(d.low)) / (Math.log(d.high) - Math.log(d.low)) : (x - d.low) / (d.high - d.low);
  };
  const l = parzen(below.map((o) => unit(o.params[d.name]!)));
  const g = parzen(above.map((o) => unit(o.params[d.name]!)));
  let best = 0;
  let bestScore = -Infinity;
  for (let k = 0; k < n; k++) {
    const x = sample(l, rand);
    const score = Math.log(density(l, x)) - Math.log(density(g, x));
    if (score > bestScore) [best, bestScore] = [x, score];
  }
  return fromUnit(d, best);
}

function pickChoice(
  d: Extract<Dimension, { kind: 'choice' }>,
  below: readonly Observed[],
  above: readonly Observed[],
  rand: () => number,
  n: number,
): GridValue {
  const probs = (group: readonly Observed[]): number[] =>
    d.choices.map((c) => (group.filter((o) => o.params[d.name] === c).length + 1) / (group.length + d.choices.length));
  const l = probs(below);
  const g = probs(above);
  let best = 0;
  let bestScore = -Infinity;
  for (let k = 0; k < n; k++) {
    let u = rand();
    let i = 0;
    while (i < l.length - 1 && u >= l[i]!) u -= l[i++]!;
    const score = Math.log(l[i]!) - Math.log(g[i]!);
    if (score > bestScore) [best, bestScore] = [i, score];
  }
  return d.choices[best]!;
}

/** An equally weighted mixture of normals truncated to [0, 1]. */
interface Mixture {
  readonly mus: readonly number[];
  readonly sigmas: readonly number[];
}

/** The Parzen estimator of observations in [0, 1], with the prior N(0.5, 1). */
export function parzen(points: readonly number[]): Mixture {
  const mus = [...points, 0.5].sort((a, b) => a - b);
  const minSigma = 1 / Math.min(100, 1 + mus.length);
  const sigmas = mus.map((m, i) => {
    if (mus.length === 1) return 1;
    // the first and last take the gap to their one neighbour (Optuna's consider_endpoints=False)
    const left = i > 0 ? m - mus[i - 1]! : 0;
    const right = i < mus.length - 1 ? mus[i + 1]! - m : 0;
    return Math.min(1, Math.max(minSigma, left, right));
  });
  // the prior keeps the whole range's width
  const p = mus.indexOf(0.5);
  sigmas[p] = 1;
  return { mus, sigmas };
}

export function density(m: Mixture, x: number): number {
  let sum = 0;
  for (let i = 0; i < m.mus.length; i++) {
    const mu = m.mus[i]!;
    const s = m.sigmas[i]!;
    const mass = phi((1 - mu) / s) - phi(-mu / s);
    sum += Math.exp(-0.5 * ((x - mu) / s) ** 2) / (s * Math.sqrt(2 * Math.PI) * mass);
  }
  return Math.max(sum / m.mus.length, 1e-300);
}

function sample(m: Mixture, rand: () => number): number {
  const i = Math.min(m.mus.length - 1, Math.floor(rand() * m.mus.length));
  for (let tries = 0; tries < 100; tries++) {
    const x = m.mus[i]! + m.sigmas[i]! * gaussian(rand);
    if (x >= 0 && x <= 1) return x;
  }
  return Math.min(1, Math.max(0, m.mus[i]!));
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/** The standard normal CDF (Abramowitz and Stegun 7.1.26; error below 1.5e-7). */
export function phi(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}
