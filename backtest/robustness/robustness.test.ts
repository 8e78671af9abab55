import { describe, expect, it } from 'vitest';
import { InputError, Rng } from '../../src/core/index.js';
import { computeMetrics } from '../metrics.js';
import {
  blockPaths,
  distributionOf,
  monteCarlo,
  percentile,
  pointReturns,
  tradePaths,
  tradeReturnsOf,
  type MonteCarloInput,
} from './robustness.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

/** A run of 1000 → 1100 → 880 → 1144 over three trips, marked daily at the trips' closes. */
const THREE: MonteCarloInput = {
  initialEquity: 1000,
  tradePnls: ['100', '-220', '264'],
  equity: Float64Array.from([1000, 1100, 880, 1144]),
  startAt: T0,
  endAt: T0 + 3 * DAY,
};

/** The type-7 percentile written out: x at rank h = (n − 1)·p/100, interpolated. */
function direct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = ((s.length - 1) * p) / 100;
  return s[Math.floor(h)]! + (h - Math.floor(h)) * ((s[Math.ceil(h)] ?? s[Math.floor(h)]!) - s[Math.floor(h)]!);
}

function maxDrawdownPct(returns: readonly number[], e0: number): number {
  let e = e0;
  let peak = e0;
  let worst = 0;
  for (const r of returns) {
    e *= 1 + r;
    peak = Math.max(peak, e);
    worst = Math.max(worst, (peak - e) / peak);
  }
  return worst * 100;
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('Monte Carlo percentiles', () => {
  it('interpolates between order statistics as a direct computation does', () => {
    const values = [7, 1, 3, 9, 5, 2, 8, 4, 6, 10];
    expect(percentile(Float64Array.from(values).sort(), 25)).toBe(3.25);
    expect(percentile(Float64Array.from(values).sort(), 50)).toBe(5.5);
    expect(percentile(Float64Array.from(values).sort(), 95)).toBeCloseTo(9.55, 12);
    const d = distributionOf(Float64Array.from([...values, Number.NaN]));
    expect(d.count).toBe(10);
    expect(d.percentiles).toEqual({
      p5: direct(values, 5),
      p25: direct(values, 25),
      p50: direct(values, 50),
      p75: direct(values, 75),
      p95: direct(values, 95),
    });
    expect(d.histogram.counts.reduce((a, b) => a + b, 0)).toBe(10);
    expect(percentile([], 50)).toBeNull();
  });

  it('reports each simulated path set by the same percentiles as sorting those paths by hand', () => {
    const paths = blockPaths(pointReturns(THREE.equity), 1000, 365, 1, 501, new Rng(3));
    const d = distributionOf(paths.maxDrawdownPct);
    for (const p of [5, 25, 50, 75, 95] as const) expect(d.percentiles[`p${p}`]).toBe(direct(Array.from(paths.maxDrawdownPct), p));
  });
});

describe('monteCarlo', () => {
  it('repeats exactly for a seed and differs for another', () => {
    const opts = { runs: 300, seed: 42 };
    expect(monteCarlo(THREE, opts)).toEqual(monteCarlo(THREE, opts));
    expect(monteCarlo(THREE, { ...opts, seed: 43 }).methods[1]).not.toEqual(monteCarlo(THREE, opts).methods[1]);
  });

  it('reshuffles trips: the final equity is the product of their returns, the drawdown one of the orders', () => {
    const returns = Array.from(tradeReturnsOf(1000, THREE.tradePnls));
    expect(returns[0]).toBeCloseTo(0.1, 12);
    expect(returns[1]).toBeCloseTo(-0.2, 12);
    expect(returns[2]).toBeCloseTo(0.3, 12);
    const shuffle = monteCarlo(THREE, { runs: 2000, seed: 7 }).methods.find((m) => m.method === 'trade-shuffle')!;
    for (const v of Object.values(shuffle.finalEquity.percentiles)) expect(v).toBeCloseTo(1144, 9);
    const orders = permutations(returns).map((p) => maxDrawdownPct(p, 1000));
    // six orders, each about a sixth of 2000 paths: p5 is the smallest drawdown, p95 the largest
    expect(shuffle.maxDrawdownPct.percentiles.p5).toBeCloseTo(Math.min(...orders), 9);
    expect(shuffle.maxDrawdownPct.percentiles.p95).toBeCloseTo(Math.max(...orders), 9);
    const paths = tradePaths(Float64Array.from(returns), 1000, 365, 200, new Rng(1), false);
    for (const dd of paths.maxDrawdownPct) expect(orders.some((o) => Math.abs(o - dd) < 1e-9)).toBe(true);
  });

  it('resamples trips with replacement: two trips give 1210, 990 and 810 with chances ¼, ½, ¼', () => {
    const input = { ...THREE, tradePnls: ['100', '-110'], equity: Float64Array.from([1000, 1100, 990]), endAt: T0 + 2 * DAY };
    const boot = monteCarlo(input, { runs: 4000, seed: 5 }).methods.find((m) => m.method === 'trade-bootstrap')!;
    expect(boot.finalEquity.percentiles.p5).toBeCloseTo(810, 9);
    expect(boot.finalEquity.percentiles.p50).toBeCloseTo(990, 9);
    expect(boot.finalEquity.percentiles.p95).toBeCloseTo(1210, 9);
    expect(boot.finalEquity.mean).toBeCloseTo(1000, -1); // E = 1000 × (1 + mean r)² = 1000
    expect(boot.ruinProbability).toBe(0);
  });

  it('counts ruin: a trip that loses 60 % is drawn in three paths of four', () => {
    const input = { ...THREE, tradePnls: ['-600', '40'], equity: Float64Array.from([1000, 400, 440]), endAt: T0 + 2 * DAY };
    const boot = monteCarlo(input, { runs: 4000, seed: 9, ruinPct: 50 }).methods.find((m) => m.method === 'trade-bootstrap')!;
    expect(boot.ruinProbability).toBeGreaterThan(0.72);
    expect(boot.ruinProbability).toBeLessThan(0.78);
    // past 60 % only two such trips (84 %) ruin: one path in four; past 84 % none
    const at = (ruinPct: number): number =>
      monteCarlo(input, { runs: 4000, seed: 9, ruinPct }).methods.find((m) => m.method === 'trade-bootstrap')!.ruinProbability;
    expect(at(61)).toBeGreaterThan(0.22);
    expect(at(61)).toBeLessThan(0.28);
    expect(at(84.5)).toBe(0);
  });

  it('block-bootstraps returns: with one block of the whole series each path is a rotation of it', () => {
    const equity = Float64Array.from([100, 110, 99, 120, 90, 95, 130]);
    const r = pointReturns(equity);
    const rotations = r.map((_, k) => maxDrawdownPct([...r.slice(k), ...r.slice(0, k)], 100));
    const paths = blockPaths(r, 100, 365, r.length, 300, new Rng(2));
    for (let k = 0; k < 300; k++) {
      expect(paths.finalEquity[k]).toBeCloseTo(130, 9);
      expect(rotations.some((o) => Math.abs(o - paths.maxDrawdownPct[k]!) < 1e-9)).toBe(true);
    }
    const mc = monteCarlo(
      { initialEquity: 100, tradePnls: [], equity, startAt: T0, endAt: T0 + 6 * DAY },
      { runs: 50, seed: 1, blockLength: 6 },
    );
    expect(mc.methods.map((m) => m.method)).toEqual(['return-block-bootstrap']);
    // a rotation keeps the returns' mean and deviation: every path has the run's own Sharpe (metrics.ts)
    const times = Float64Array.from(equity, (_, i) => T0 + i * DAY);
    const sharpe = computeMetrics({ times, equity, prices: equity, trades: [] }).sharpe!;
    expect(mc.methods[0]!.sharpe.min).toBeCloseTo(sharpe, 9);
    expect(mc.methods[0]!.sharpe.max).toBeCloseTo(sharpe, 9);
    expect(mc.notes[0]).toMatch(/no completed round trip/);
    expect(mc.blockLength).toBe(6);
  });

  it('annualises the Sharpe ratio of trips by trips per year', () => {
    const returns = Array.from(tradeReturnsOf(1000, THREE.tradePnls));
    const mean = returns.reduce((a, b) => a + b, 0) / 3;
    const sd = Math.sqrt(returns.reduce((a, b) => a + (b - mean) ** 2, 0) / 2);
    const perYear = 3 / (3 / 365);
    const shuffle = monteCarlo(THREE, { runs: 10, seed: 1 }).methods[0]!;
    expect(shuffle.sharpe.percentiles.p50).toBeCloseTo((mean / sd) * Math.sqrt(perYear), 9);
  });

  it('refuses a bad number of runs, ruin threshold or block length, naming the flag', () => {
    expect(() => monteCarlo(THREE, { runs: 0, seed: 1 })).toThrow(InputError);
    expect(() => monteCarlo(THREE, { runs: 0, seed: 1 })).toThrow(/--robustness/);
    expect(() => monteCarlo(THREE, { runs: 10, seed: 1, ruinPct: 0 })).toThrow(/--ruin-pct/);
    expect(() => monteCarlo(THREE, { runs: 10, seed: 1, blockLength: 1.5 })).toThrow(/--block-length/);
  });
});
