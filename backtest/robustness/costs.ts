/**
 * Cost sensitivity (`tradeloop backtest --robustness N`): the same backtest run again with the fee,
 * then the slippage, at 0, ½, 1, 1½, 2 and 3 times the configured value (the other one as
 * configured), and the break-even fee: the fee in bps at which the run's total return reaches 0,
 * found by bisection to 0.1 bps with the slippage as configured. A configured slippage of 0 has no
 * multiples, so its sweep is taken in multiples of the fee instead (the rows say which bps ran).
 * A re-run costs a full backtest (a few hundred ms per million points); the sweep makes ten of them
 * and the bisection about seven more when the sign changes within 3× (a run that still earns there
 * first doubles the fee up to 10,000 bps: at most about 25 more).
 */

/** What one re-run at a fee and slippage gave. */
export interface CostRunFigures {
  readonly returnPct: number;
  readonly finalEquity: number;
  /** Decimal string, as the run computed it. */
  readonly feesPaid: string;
  readonly trades: number;
  readonly sharpe: number | null;
}

export interface CostRow extends CostRunFigures {
  /** Which cost this row varies, and by what multiple of its base. */
  readonly varied: 'fee' | 'slippage';
  readonly multiple: number;
  readonly feeBps: number;
  readonly slippageBps: number;
}

export interface BreakEvenFee {
  /** The fee in bps where the return crosses 0 (to within `toleranceBps`), or null (see `note`). */
  readonly feeBps: number | null;
  readonly toleranceBps: number;
  readonly note: string;
}

export interface CostSensitivity {
  readonly feeBps: number;
  readonly slippageBps: number;
  /** The base the slippage multiples apply to (the fee's bps when the configured slippage is 0). */
  readonly slippageBaseBps: number;
  readonly rows: readonly CostRow[];
  readonly breakEven: BreakEvenFee;
}

/** Re-runs the backtest at a fee and slippage (bps). */
export type CostRerun = (feeBps: number, slippageBps: number) => Promise<CostRunFigures>;

export const COST_MULTIPLES = [0, 0.5, 1, 1.5, 2, 3] as const;
const TOLERANCE_BPS = 0.1;
/** Fees above this are not searched: 100 % of notional per side. */
const MAX_FEE_BPS = 10_000;

/**
 * The sweep and the break-even fee. `base` is the run as configured (reused for multiple 1, so a
 * sweep makes ten re-runs, not twelve).
 */
export async function costSensitivity(
  feeBps: number,
  slippageBps: number,
  base: CostRunFigures,
  rerun: CostRerun,
): Promise<CostSensitivity> {
  const cache = new Map<string, Promise<CostRunFigures>>([[key(feeBps, slippageBps), Promise.resolve(base)]]);
  const run = (fee: number, slip: number): Promise<CostRunFigures> => {
    const k = key(fee, slip);
    let hit = cache.get(k);
    if (hit === undefined) cache.set(k, (hit = rerun(fee, slip)));
    return hit;
  };
  const slippageBaseBps = slippageBps > 0 ? slippageBps : feeBps;
  const rows: CostRow[] = [];
  for (const multiple of COST_MULTIPLES) {
    const fee = round(feeBps * multiple);
    rows.push({ varied: 'fee', multiple, feeBps: fee, slippageBps, ...(await run(fee, slippageBps)) });
  }
  for (const multiple of COST_MULTIPLES) {
    const slip = round(slippageBaseBps * multiple);
    rows.push({ varied: 'slippage', multiple, feeBps, slippageBps: slip, ...(await run(feeBps, slip)) });
  }
  const breakEven = await breakEvenFee(
    slippageBps,
    rows.filter((r) => r.varied === 'fee'),
    (fee) => run(fee, slippageBps),
  );
  return { feeBps, slippageBps, slippageBaseBps, rows, breakEven };
}

/** Bisection between the last fee that still made money and the first that did not. */
async function breakEvenFee(
  slippageBps: number,
  feeRows: readonly CostRow[],
  run: (fee: number) => Promise<CostRunFigures>,
): Promise<BreakEvenFee> {
  const atZero = feeRows.find((r) => r.feeBps === 0);
  if (atZero === undefined || !(atZero.returnPct > 0)) {
    return {
      feeBps: null,
      toleranceBps: TOLERANCE_BPS,
      note: `the run does not make money even without fees (return ${(atZero?.returnPct ?? 0).toFixed(2)} % at 0 bps, slippage ${slippageBps} bps)`,
    };
  }
  let lo = 0;
  let hi: number | undefined;
  for (const r of feeRows) {
    if (r.returnPct > 0) lo = Math.max(lo, r.feeBps);
    else if (hi === undefined || r.feeBps < hi) hi = r.feeBps;
  }
  for (let probe = Math.max(10, lo * 2); hi === undefined; probe *= 2) {
    const fee = Math.min(MAX_FEE_BPS, probe);
    if ((await run(fee)).returnPct > 0) lo = fee;
    else hi = fee;
    if (fee === MAX_FEE_BPS) break;
  }
  if (hi === undefined)
    return { feeBps: null, toleranceBps: TOLERANCE_BPS, note: `the run still makes money at a fee of ${MAX_FEE_BPS} bps` };
  while (hi - lo > TOLERANCE_BPS) {
    const mid = round((lo + hi) / 2);
    if (mid <= lo || mid >= hi) break;
    if ((await run(mid)).returnPct > 0) lo = mid;
    else hi = mid;
  }
  const fee = Math.round(((lo + hi) / 2) * 10) / 10;
  return {
    feeBps: fee,
    toleranceBps: TOLERANCE_BPS,
    note: `the return is above 0 at ${lo.toFixed(2)} bps and not at ${hi.toFixed(2)} bps (slippage ${slippageBps} bps)`,
  };
}

function key(fee: number, slip: number): string {
  return `${fee}/${slip}`;
}

/** Bps to 4 decimals, so multiples and midpoints do not carry float noise. */
function round(bps: number): number {
  return Math.round(bps * 1e4) / 1e4;
}
