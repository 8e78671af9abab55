import { describe, expect, it } from 'vitest';
import { D, InputError } from '../src/core/index.js';
import { Rng } from '../src/core/rng.js';
import { buyHoldSeries, computeMetrics, drawdownSeries, metricsToJson, type RoundTrip, YEAR_MS } from './metrics.js';

const DAY = 86_400_000;
const f64 = (...values: number[]): Float64Array => Float64Array.from(values);
const days = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i * DAY);

function trip(entryDay: number, exitDay: number, pnl: string, fees: string): RoundTrip {
  return { side: 'long', entryAt: entryDay * DAY, exitAt: exitDay * DAY, quantity: '1', entryPrice: '50', exitPrice: '55', pnl, fees };
}

describe('computeMetrics on a hand-computed daily series', () => {
  // equity 100, 110, 99, 99, 118.8 → returns r = 0.1, −0.1, 0, 0.2 (m = 4); Δ = 1 day so K = 365.
  // mean = 0.05; squared deviations 0.0025 + 0.0225 + 0.0025 + 0.0225 = 0.05; s = √(0.05 / 3).
  // downside: only −0.1 → d = √(0.01 / 4) = 0.05.
  const trades = [trip(0, 1, '9.5', '0.5'), trip(2, 3, '-1.25', '0.25'), trip(2.5, 4, '3', '0.3')];
  const m = computeMetrics({ times: days(5), equity: f64(100, 110, 99, 99, 118.8), prices: f64(50, 55, 45, 50, 60), trades });
  const s = Math.sqrt(0.05 / 3);

  it('gives equity, total return, period and points', () => {
    expect([m.points, m.initialEquity, m.finalEquity, m.periodMs, m.periodsPerYear]).toEqual([5, 100, 118.8, DAY, 365]);
    expect(m.totalReturnPct).toBeCloseTo(18.8, 10);
  });

  it('annualises volatility, Sharpe and Sortino by the data spacing', () => {
    expect(m.volatilityPct).toBeCloseTo(s * Math.sqrt(365) * 100, 10);
    expect(m.sharpe).toBeCloseTo((0.05 / s) * Math.sqrt(365), 10);
    expect(m.sortino).toBeCloseTo((0.05 / 0.05) * Math.sqrt(365), 10);
  });

  it('finds the max drawdown (110 → 99 = 10%) lasting from its peak to the recovery', () => {
    expect(m.maxDrawdownPct).toBeCloseTo(10, 10);
    expect([m.maxDrawdownPeakAt, m.maxDrawdownTroughAt, m.maxDrawdownDurationMs, m.maxDrawdownRecovered]).toEqual([
      DAY,
      2 * DAY,
      3 * DAY,
      true,
    ]);
  });

  it('counts round trips, win rate, profit factor, fees and exposure', () => {
    expect(m.trades).toBe(3);
    expect(m.winRatePct).toBeCloseTo(200 / 3, 10);
    expect(m.profitFactor).toBeCloseTo(12.5 / 1.25, 12);
    expect([m.feesPaid, m.fees]).toEqual(['1.05', 1.05]);
    // union of [0,1] and [2,3] ∪ [2.5,4] = 1 + 2 days of 4
    expect(m.exposurePct).toBeCloseTo(75, 10);
  });

  it('compares against buy-and-hold over the same points (50 → 60 = 20%)', () => {
    expect(m.buyHoldReturnPct).toBeCloseTo(20, 10);
  });

  it('gives CAGR as a huge but finite compounding of 18.8% over four days', () => {
    expect(m.cagrPct).toBeCloseTo((1.188 ** (365 / 4) - 1) * 100, 0);
  });
});

describe('computeMetrics edge cases', () => {
  const base = { prices: f64(10, 10, 10), trades: [] };

  it('compounds CAGR over the span in years (100 → 121 over two years = 10%)', () => {
    const m = computeMetrics({ times: f64(0, YEAR_MS, 2 * YEAR_MS), equity: f64(100, 105, 121), ...base });
    expect(m.cagrPct).toBeCloseTo(10, 10);
    expect(m.periodsPerYear).toBe(1);
  });

  it('leaves Sharpe and Sortino null when equity never moves, and reports zero volatility', () => {
    const m = computeMetrics({ times: days(3), equity: f64(100, 100, 100), ...base });
    expect([m.sharpe, m.sortino, m.volatilityPct, m.maxDrawdownPct, m.totalReturnPct]).toEqual([null, null, 0, 0, 0]);
    expect([m.maxDrawdownDurationMs, m.maxDrawdownRecovered]).toEqual([0, true]);
  });

  it('leaves Sortino null when no return is negative, while Sharpe is defined', () => {
    const m = computeMetrics({ times: days(3), equity: f64(100, 101, 103), ...base });
    expect(m.sortino).toBeNull();
    expect(m.sharpe).not.toBeNull();
  });

  it('leaves return statistics null with fewer than two returns', () => {
    const two = computeMetrics({ times: days(2), equity: f64(100, 110), prices: f64(1, 2), trades: [] });
    expect([two.sharpe, two.sortino, two.volatilityPct]).toEqual([null, null, null]);
    const one = computeMetrics({ times: days(1), equity: f64(100), prices: f64(1), trades: [] });
    expect([one.periodMs, one.cagrPct, one.exposurePct, one.sharpe, one.totalReturnPct]).toEqual([null, null, null, null, 0]);
  });

  it('measures an unrecovered drawdown to the last point', () => {
    const m = computeMetrics({ times: days(4), equity: f64(100, 120, 90, 100), prices: f64(1, 1, 1, 1), trades: [] });
    expect(m.maxDrawdownPct).toBeCloseTo(25, 10);
    expect([m.maxDrawdownPeakAt, m.maxDrawdownDurationMs, m.maxDrawdownRecovered]).toEqual([DAY, 2 * DAY, false]);
  });

  it('gives null win rate and profit factor without trades, and null profit factor without a loser', () => {
    const none = computeMetrics({ times: days(3), equity: f64(100, 100, 100), ...base });
    expect([none.trades, none.winRatePct, none.profitFactor, none.exposurePct, none.feesPaid]).toEqual([0, null, null, 0, '0']);
    const allWins = computeMetrics({ times: days(3), equity: f64(100, 100, 100), prices: base.prices, trades: [trip(0, 1, '2', '0.1')] });
    expect([allWins.winRatePct, allWins.profitFactor]).toEqual([100, null]);
  });

  it('counts a position still open at the end toward exposure and takes fees paid as given', () => {
    const m = computeMetrics({
      times: days(5),
      equity: f64(100, 100, 100, 100, 100),
      prices: f64(1, 1, 1, 1, 1),
      trades: [trip(-1, 1, '0', '0.1')],
      openSince: 3 * DAY,
      feesPaid: '0.25',
    });
    expect(m.exposurePct).toBeCloseTo(50, 10);
    expect(m.feesPaid).toBe('0.25');
  });

  it.each([
    [{ times: f64(), equity: f64(), prices: f64() }, 'times: no points'],
    [{ times: days(2), equity: f64(1), prices: f64(1, 1) }, 'equity: times, equity and prices must have one value per point (2, 1, 2)'],
    [{ times: days(2), equity: f64(0, 1), prices: f64(1, 1) }, 'equity: initial equity must be positive, got 0'],
    [{ times: days(2), equity: f64(1, NaN), prices: f64(1, 1) }, 'equity: equity at point 1 is NaN'],
    [{ times: days(2), equity: f64(1, 1), prices: f64(-1, 1) }, 'prices: the first price must be positive'],
  ])('rejects bad input with the field named (%#)', (input, message) => {
    expect(() => computeMetrics({ ...input, trades: [] })).toThrow(InputError);
    expect(() => computeMetrics({ ...input, trades: [] })).toThrow(message);
  });
});

/**
 * The statistics as separate plain loops, the way they read in the formulas above (one per metric),
 * and the trades' money in decimal.js: computeMetrics' single pass and bigint sums must give the
 * same numbers to the last bit.
 */
function reference(times: Float64Array, equity: Float64Array, trades: readonly RoundTrip[], periodsPerYear: number) {
  const m = equity.length - 1;
  let mean = 0;
  let m2 = 0;
  let downside = 0;
  for (let i = 1; i <= m; i++) {
    const prev = equity[i - 1]!;
    const r = prev > 0 ? equity[i]! / prev - 1 : 0;
    const delta = r - mean;
    mean += delta / i;
    m2 += delta * (r - mean);
    if (r < 0) downside += r * r;
  }
  const sd = Math.sqrt(m2 / (m - 1));
  const dd = Math.sqrt(downside / m);
  const root = Math.sqrt(periodsPerYear);
  let peak = equity[0]!;
  let peakIndex = 0;
  let worst = 0;
  let worstPeak = 0;
  let worstTrough = 0;
  for (let i = 1; i <= m; i++) {
    const e = equity[i]!;
    if (e > peak) {
      peak = e;
      peakIndex = i;
    } else if (peak > 0 && (peak - e) / peak > worst) {
      worst = (peak - e) / peak;
      worstPeak = peakIndex;
      worstTrough = i;
    }
  }
  let recovery = -1;
  for (let i = worstTrough + 1; worst > 0 && i <= m && recovery < 0; i++) if (equity[i]! >= equity[worstPeak]!) recovery = i;
  const endIndex = worst === 0 ? worstPeak : recovery >= 0 ? recovery : m;
  let profit = new D(0);
  let loss = new D(0);
  for (const t of trades) {
    if (new D(t.pnl).gt(0)) profit = profit.plus(t.pnl);
    else loss = loss.minus(t.pnl);
  }
  return {
    volatilityPct: sd * root * 100,
    sharpe: sd > 0 ? (mean / sd) * root : null,
    sortino: dd > 0 ? (mean / dd) * root : null,
    maxDrawdownPct: worst * 100,
    maxDrawdownDurationMs: times[endIndex]! - times[worstPeak]!,
    maxDrawdownPeakAt: times[worstPeak]!,
    maxDrawdownTroughAt: times[worstTrough]!,
    maxDrawdownRecovered: worst === 0 || recovery >= 0,
    profitFactor: loss.gt(0) ? profit.div(loss).toNumber() : null,
    feesPaid: trades.reduce((sum, t) => sum.plus(t.fees), new D(0)).toFixed(),
  };
}

describe('computeMetrics in one pass', () => {
  it('gives what separate loops and decimal.js give, to the last bit, on random curves with plateaus, recoveries and ruin', () => {
    const rng = new Rng(22);
    for (let run = 0; run < 40; run++) {
      const n = 2 + Math.floor(rng.next() * 3_000);
      const times = days(n);
      const equity = new Float64Array(n);
      let e = 100 * (1 + rng.next());
      for (let i = 0; i < n; i++) {
        const roll = rng.next();
        // flat stretches, values met again exactly (a recovery to the very peak), and runs ending at 0
        if (roll < 0.2) e = i > 0 ? equity[i - 1]! : e;
        else if (roll < 0.22 && i > 2) e = equity[Math.floor(rng.next() * i)]!;
        else e *= 1 + (rng.next() - (run % 3 === 0 ? 0.52 : 0.5)) * 0.1;
        if (run % 7 === 6 && i > n / 2) e = 0;
        equity[i] = e;
      }
      const trades = Array.from({ length: Math.floor(rng.next() * 50) }, (_, k) =>
        trip(
          k,
          k + 0.5,
          `${rng.next() < 0.5 ? '-' : ''}${(rng.next() * 1e4).toFixed(Math.floor(rng.next() * 14))}`,
          (rng.next() * 10).toFixed(Math.floor(rng.next() * 12)),
        ),
      );
      const m = computeMetrics({ times, equity, prices: equity.map(() => 1), trades });
      const want = reference(times, equity, trades, m.periodsPerYear!);
      if (n < 3) Object.assign(want, { volatilityPct: null, sharpe: null, sortino: null });
      expect({ ...m, points: undefined }).toMatchObject(want);
    }
  });

  it('refuses a trade whose money is not a decimal, naming the field and the trade', () => {
    const input = { times: days(2), equity: f64(1, 1), prices: f64(1, 1) };
    expect(() => computeMetrics({ ...input, trades: [trip(0, 1, '1', '0'), trip(0, 1, 'abc', '0')] })).toThrow(
      'pnl: trade 1 has pnl "abc"; it must be a decimal string',
    );
    expect(() => computeMetrics({ ...input, trades: [trip(0, 1, '1', '1e')] })).toThrow(/^fees: trade 0 has fees "1e"/);
  });
});

describe('series helpers and the JSON summary', () => {
  it('draws drawdown as a positive percent below the running peak', () => {
    expect(Array.from(drawdownSeries(f64(100, 120, 90, 130)))).toEqual([0, 0, 25, 0]);
  });

  it('values buy-and-hold as the initial equity in units of the first price', () => {
    expect(Array.from(buyHoldSeries(f64(50, 55, 45), 100))).toEqual([100, 110, 90]);
  });

  it('prints the --json fields the issue names, with snake_case keys', () => {
    const m = computeMetrics({ times: days(3), equity: f64(100, 90, 99), prices: f64(1, 1, 1), trades: [trip(0, 2, '-1', '0.2')] });
    const json = metricsToJson(m);
    expect(json).toMatchObject({ points: 3, trades: 1, final_equity: 99, fees: 0.2, sharpe: expect.any(Number) });
    expect(json.max_drawdown_pct).toBeCloseTo(10, 10);
    expect(json.return_pct).toBeCloseTo(-1, 10);
  });
});
