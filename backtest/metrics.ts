/**
 * Backtest metrics from an equity curve marked at every price point and the list of completed round
 * trips. One pass over the points (a million points cost a few milliseconds); money sums over trades
 * (P&L, fees) are exact (bigint units). Every formula is written out below so a reader can check a
 * number by hand.
 *
 * Notation: points i = 0 … n−1 at times t_i with equity E_i and price P_i; simple returns
 * r_i = E_i / E_{i−1} − 1 for i = 1 … n−1 (m = n − 1 returns); the data's own spacing
 * Δ = (t_{n−1} − t_0) / (n − 1) gives K = YEAR_MS / Δ periods per year; a year is 365 days (markets
 * trade every day). Ratios are plain numbers, percentages are ×100.
 */
import { D, type Dec, InputError, toWire } from '../src/core/index.js';
import { decimalsOf, MAX_DECIMALS, unitsOf, unitsToDecimal } from '../src/core/units.js';

/** 365 days in milliseconds: crypto markets trade every day of the year. */
export const YEAR_MS = 365 * 86_400_000;

/** A completed round trip: a position opened and closed again. Money fields are decimal strings. */
export interface RoundTrip {
  readonly market?: string;
  readonly side: 'long' | 'short';
  /** Epoch ms of the entry fill and the exit fill. */
  readonly entryAt: number;
  readonly exitAt: number;
  /** Base quantity, and average entry and exit prices in quote currency. */
  readonly quantity: string;
  readonly entryPrice: string;
  readonly exitPrice: string;
  /** Net profit or loss in quote currency after this trip's fees (entry and exit). */
  readonly pnl: string;
  readonly fees: string;
}

export interface MetricsInput {
  /** Epoch ms, ascending; equity and prices have one value per time. */
  readonly times: Float64Array;
  /** Account value in quote currency marked at each point's price. */
  readonly equity: Float64Array;
  /** The market's price at each point, for buy-and-hold. */
  readonly prices: Float64Array;
  readonly trades: readonly RoundTrip[];
  /** All fees paid, including those of a position still open at the end; default: the trades' fees. */
  readonly feesPaid?: string;
  /** Entry time of a position still open at the last point (counts toward exposure). */
  readonly openSince?: number;
}

/** The numbers a backtest is judged by. `null` means undefined for this data (see each formula). */
export interface BacktestMetrics {
  readonly points: number;
  readonly startAt: number;
  readonly endAt: number;
  /** Δ, the mean spacing of points, and K = YEAR_MS / Δ (null with fewer than 2 points). */
  readonly periodMs: number | null;
  readonly periodsPerYear: number | null;
  /** E_0 and E_{n−1}. */
  readonly initialEquity: number;
  readonly finalEquity: number;
  /** (E_{n−1} / E_0 − 1) × 100. */
  readonly totalReturnPct: number;
  /** ((E_{n−1} / E_0)^(1 / years) − 1) × 100, years = (t_{n−1} − t_0) / YEAR_MS; −100 when E_{n−1} ≤ 0; null for a zero span or overflow. */
  readonly cagrPct: number | null;
  /** s × √K × 100, s the sample standard deviation of r (divisor m − 1); null when m < 2. */
  readonly volatilityPct: number | null;
  /** mean(r) / s × √K (risk-free rate 0); null when m < 2 or s = 0. */
  readonly sharpe: number | null;
  /** mean(r) / d × √K, d = √(Σ min(r_i, 0)² / m) (target return 0); null when m < 2 or d = 0. */
  readonly sortino: number | null;
  /** max over i of (peak_i − E_i) / peak_i × 100 with peak_i = max_{j ≤ i} E_j; positive, 0 when never below a peak. */
  readonly maxDrawdownPct: number;
  /** Time from that drawdown's peak to the first point back at or above the peak (or to the last point). */
  readonly maxDrawdownDurationMs: number;
  readonly maxDrawdownPeakAt: number;
  readonly maxDrawdownTroughAt: number;
  readonly maxDrawdownRecovered: boolean;
  /** Number of completed round trips. */
  readonly trades: number;
  /** Round trips with pnl > 0 / trades × 100; null without trades. */
  readonly winRatePct: number | null;
  /** Σ pnl of winners / |Σ pnl of losers|; null without a losing trade (undefined). */
  readonly profitFactor: number | null;
  /** Time inside the union of [entryAt, exitAt] (and [openSince, t_{n−1}]) / (t_{n−1} − t_0) × 100; null for a zero span. */
  readonly exposurePct: number | null;
  /** Fees paid in quote currency (decimal string) and as a number. */
  readonly feesPaid: string;
  readonly fees: number;
  /** (P_{n−1} / P_0 − 1) × 100: holding the market over the same points, before fees. */
  readonly buyHoldReturnPct: number;
}

/** Computes every metric; throws InputError when the arrays disagree in length or hold bad values. */
export function computeMetrics(input: MetricsInput): BacktestMetrics {
  const { times, equity, prices } = checkInput(input);
  const n = times.length;
  const startAt = times[0]!;
  const endAt = times[n - 1]!;
  const spanMs = endAt - startAt;
  const periodMs = n > 1 ? spanMs / (n - 1) : null;
  const periodsPerYear = periodMs ? YEAR_MS / periodMs : null;
  const initialEquity = equity[0]!;
  const finalEquity = equity[n - 1]!;
  const fees = input.feesPaid !== undefined ? new D(input.feesPaid) : feesOf(input.trades);
  return {
    points: n,
    startAt,
    endAt,
    periodMs,
    periodsPerYear,
    initialEquity,
    finalEquity,
    totalReturnPct: (finalEquity / initialEquity - 1) * 100,
    cagrPct: cagrPct(initialEquity, finalEquity, spanMs),
    ...equityStats(times, equity, periodsPerYear),
    ...tradeStats(input.trades),
    exposurePct: exposurePct(input.trades, input.openSince, startAt, endAt),
    feesPaid: toWire(fees),
    fees: fees.toNumber(),
    buyHoldReturnPct: (prices[n - 1]! / prices[0]! - 1) * 100,
  };
}

function checkInput(input: MetricsInput): MetricsInput {
  const n = input.times.length;
  if (n === 0) throw new InputError('times', 'no points; metrics need at least one marked point');
  if (input.equity.length !== n || input.prices.length !== n) {
    throw new InputError(
      'equity',
      `times, equity and prices must have one value per point (${n}, ${input.equity.length}, ${input.prices.length})`,
    );
  }
  if (!(input.equity[0]! > 0)) throw new InputError('equity', `initial equity must be positive, got ${input.equity[0]}`);
  if (!(input.prices[0]! > 0)) throw new InputError('prices', `the first price must be positive, got ${input.prices[0]}`);
  // each point's equity is checked by equityStats' pass, before anything is returned
  return input;
}

function cagrPct(initial: number, final: number, spanMs: number): number | null {
  if (!(spanMs > 0)) return null;
  if (final <= 0) return -100;
  const value = ((final / initial) ** (YEAR_MS / spanMs) - 1) * 100;
  return Number.isFinite(value) ? value : null;
}

type DrawdownFields = 'maxDrawdownPct' | 'maxDrawdownDurationMs' | 'maxDrawdownPeakAt' | 'maxDrawdownTroughAt' | 'maxDrawdownRecovered';

/**
 * The equity curve's figures from one pass (`equityPass`): the mean, sample deviation and downside
 * deviation of simple returns, and the deepest drawdown, its peak and trough, and the first point back
 * at that peak.
 */
function equityStats(
  times: Float64Array,
  equity: Float64Array,
  periodsPerYear: number | null,
): Pick<BacktestMetrics, 'volatilityPct' | 'sharpe' | 'sortino' | DrawdownFields> {
  const m = equity.length - 1;
  const pass = equityPass(equity, m, PASS);
  const mean = pass[MEAN]!;
  const worst = pass[WORST]!;
  const worstPeak = pass[WORST_PEAK]!;
  const recovery = pass[RECOVERY]!;
  const endIndex = worst === 0 ? worstPeak : recovery >= 0 ? recovery : m;
  const drawdown = {
    maxDrawdownPct: worst * 100,
    maxDrawdownDurationMs: times[endIndex]! - times[worstPeak]!,
    maxDrawdownPeakAt: times[worstPeak]!,
    maxDrawdownTroughAt: times[pass[WORST_TROUGH]!]!,
    maxDrawdownRecovered: worst === 0 || recovery >= 0,
  };
  if (m < 2 || periodsPerYear === null) return { volatilityPct: null, sharpe: null, sortino: null, ...drawdown };
  const sd = Math.sqrt(pass[M2]! / (m - 1));
  const dd = Math.sqrt(pass[DOWNSIDE]! / m);
  const root = Math.sqrt(periodsPerYear);
  return {
    volatilityPct: sd * root * 100,
    sharpe: sd > 0 ? (mean / sd) * root : null,
    sortino: dd > 0 ? (mean / dd) * root : null,
    ...drawdown,
  };
}

/** Where `equityPass` leaves its sums and indices (one array for every call: it is read at once). */
const PASS = new Float64Array(7);
const MEAN = 0;
const M2 = 1;
const DOWNSIDE = 2;
const WORST = 3;
const WORST_PEAK = 4;
const WORST_TROUGH = 5;
const RECOVERY = 6;

/**
 * One pass over the equity curve's points 0 … m: it checks each point (a number ≥ 0), and sums the
 * returns' mean, m2 and downside (Welford) and finds the deepest drawdown, into `out` (at the indices
 * above). Over a million points the pass is bound by Welford's chain of divisions; the drawdown's work
 * goes in its shadow, where separate loops cost a pass each.
 *
 * Its own function, given `m`, so that V8 keeps it compiled from one backtest to the next: it reads
 * nothing before its loop. Called once per run, the function gets its type feedback only during its
 * first loop, so a read before the loop (the array's length) had none, and every compiled version was
 * dropped on entry at the next call, which then ran most of its million points unoptimized (each
 * number boxed: some 30 MB of garbage a run).
 */
function equityPass(equity: Float64Array, m: number, out: Float64Array): Float64Array {
  let mean = 0;
  let m2 = 0;
  let downside = 0;
  let prev = equity[0]!;
  let peak = prev;
  let peakIndex = 0;
  /** The lowest equity since the peak. */
  let low = prev;
  let worst = 0;
  let worstPeak = 0;
  let worstPeakValue = prev;
  let worstTrough = 0;
  let recovery = -1;
  for (let i = 1; i <= m; i++) {
    const e = equity[i]!;
    if (!(e >= 0)) throw new InputError('equity', `equity at point ${i} is ${e}; it must be a number ≥ 0`);
    const r = prev > 0 ? e / prev - 1 : 0;
    const delta = r - mean;
    mean += delta / i;
    m2 += delta * (r - mean);
    // Math.min rather than an if: half the returns are negative, at random, and the mispredicted
    // branch cost a third of the pass (adding 0 × 0 changes nothing)
    const loss = Math.min(r, 0);
    downside += loss * loss;
    prev = e;
    if (e > peak) {
      peak = e;
      peakIndex = i;
      low = e;
    } else if (e < low) {
      // below the peak, (peak − e) / peak only grows as e falls: only a new low since the peak can be
      // a deeper drawdown, so the division is made for new lows alone (a small share of the points)
      low = e;
      if (peak > 0 && (peak - e) / peak > worst) {
        worst = (peak - e) / peak;
        worstPeak = peakIndex;
        worstPeakValue = peak;
        worstTrough = i;
        recovery = -1;
        continue;
      }
    }
    // the first point after the deepest trough so far that is back at its peak
    if (recovery < 0 && worst > 0 && e >= worstPeakValue) recovery = i;
  }
  out[MEAN] = mean;
  out[M2] = m2;
  out[DOWNSIDE] = downside;
  out[WORST] = worst;
  out[WORST_PEAK] = worstPeak;
  out[WORST_TROUGH] = worstTrough;
  out[RECOVERY] = recovery;
  return out;
}

/** Σ pnl of winners and of losers, summed exactly in bigint units at the trades' finest decimals. */
function tradeStats(trades: readonly RoundTrip[]): Pick<BacktestMetrics, 'trades' | 'winRatePct' | 'profitFactor'> {
  const scale = scaleOf(trades, 'pnl');
  let wins = 0;
  let grossProfit = 0n;
  let grossLoss = 0n;
  for (let i = 0; i < trades.length; i++) {
    const pnl = moneyOf(trades, i, 'pnl', scale);
    if (pnl > 0n) {
      wins++;
      grossProfit += pnl;
    } else grossLoss -= pnl;
  }
  return {
    trades: trades.length,
    winRatePct: trades.length > 0 ? (wins / trades.length) * 100 : null,
    profitFactor: grossLoss > 0n ? unitsToDecimal(grossProfit, scale).div(unitsToDecimal(grossLoss, scale)).toNumber() : null,
  };
}

/** Σ fees of the trades, exact. */
function feesOf(trades: readonly RoundTrip[]): Dec {
  const scale = scaleOf(trades, 'fees');
  let total = 0n;
  for (let i = 0; i < trades.length; i++) total += moneyOf(trades, i, 'fees', scale);
  return unitsToDecimal(total, scale);
}

/** The most decimals of a money field over the trades: the scale their sum is exact at. */
function scaleOf(trades: readonly RoundTrip[], field: 'pnl' | 'fees'): number {
  let scale = 0;
  for (let i = 0; i < trades.length; i++) {
    const text = trades[i]![field];
    const decimals = typeof text === 'string' ? decimalsOf(text) : undefined;
    if (decimals === undefined || decimals > MAX_DECIMALS) throw badMoney(trades, i, field);
    if (decimals > scale) scale = decimals;
  }
  return scale;
}

/** A trade's money field in units at `scale` (at least its decimals); throws InputError for one that is not a decimal. */
function moneyOf(trades: readonly RoundTrip[], i: number, field: 'pnl' | 'fees', scale: number): bigint {
  const units = unitsOf(trades[i]![field], scale);
  if (units === undefined) throw badMoney(trades, i, field);
  return units;
}

function badMoney(trades: readonly RoundTrip[], i: number, field: 'pnl' | 'fees'): InputError {
  return new InputError(
    field,
    `trade ${i} has ${field} ${JSON.stringify(trades[i]![field])}; it must be a decimal string of at most ${MAX_DECIMALS} places, e.g. "-12.5"`,
  );
}

/** Share of the run's time spent in a position: the union of holding intervals, clipped to the run. */
function exposurePct(trades: readonly RoundTrip[], openSince: number | undefined, startAt: number, endAt: number): number | null {
  if (!(endAt > startAt)) return null;
  const spans = trades.map((t): [number, number] => [t.entryAt, t.exitAt]);
  if (openSince !== undefined) spans.push([openSince, endAt]);
  spans.sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = startAt;
  for (const [from, to] of spans) {
    const a = Math.max(from, reach);
    const b = Math.min(to, endAt);
    if (b > a) covered += b - a;
    reach = Math.max(reach, Math.min(b, endAt));
  }
  return (covered / (endAt - startAt)) * 100;
}

/** Drawdown at each point, (peak_i − E_i) / peak_i × 100 (positive), for charts and equity.csv. */
export function drawdownSeries(equity: Float64Array): Float64Array {
  const out = new Float64Array(equity.length);
  let peak = -Infinity;
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i]!;
    if (e > peak) peak = e;
    out[i] = peak > 0 ? ((peak - e) / peak) * 100 : 0;
  }
  return out;
}

/** What E_0 would be worth holding the market: E_0 × P_i / P_0 at each point (before fees). */
export function buyHoldSeries(prices: Float64Array, initialEquity: number): Float64Array {
  const out = new Float64Array(prices.length);
  const units = initialEquity / prices[0]!;
  for (let i = 0; i < prices.length; i++) out[i] = units * prices[i]!;
  return out;
}

/**
 * The snake_case summary the CLI prints with `--json` (the CLI adds `elapsed_ms` and `load_ms`):
 * percents are percents, drawdown positive, `sharpe` null when undefined.
 */
export function metricsToJson(m: BacktestMetrics): Record<string, number | boolean | null> {
  return {
    points: m.points,
    trades: m.trades,
    final_equity: m.finalEquity,
    fees: m.fees,
    return_pct: m.totalReturnPct,
    cagr_pct: m.cagrPct,
    volatility_pct: m.volatilityPct,
    sharpe: m.sharpe,
    sortino: m.sortino,
    max_drawdown_pct: m.maxDrawdownPct,
    max_drawdown_duration_ms: m.maxDrawdownDurationMs,
    win_rate_pct: m.winRatePct,
    profit_factor: m.profitFactor,
    exposure_pct: m.exposurePct,
    buy_hold_return_pct: m.buyHoldReturnPct,
  };
}
