import { describe, expect, it } from 'vitest';
import { COST_MULTIPLES, costSensitivity, type CostRunFigures } from './costs.js';

/** A made-up run whose return falls 1 % per fee bp and 0.5 % per slippage bp from 20 %. */
function linear(start = 20): { calls: Array<[number, number]>; rerun: (fee: number, slip: number) => Promise<CostRunFigures> } {
  const calls: Array<[number, number]> = [];
  return {
    calls,
    rerun: async (fee, slip) => {
      calls.push([fee, slip]);
      const returnPct = start - fee - 0.5 * slip;
      return { returnPct, finalEquity: 10_000 * (1 + returnPct / 100), feesPaid: (fee * 3).toFixed(2), trades: 7, sharpe: returnPct / 10 };
    },
  };
}

describe('costSensitivity', () => {
  it('sweeps the fee and the slippage from 0 to 3× and finds the break-even fee to 0.1 bps', async () => {
    const { calls, rerun } = linear();
    const base = await rerun(10, 4);
    calls.length = 0;
    const c = await costSensitivity(10, 4, base, rerun);
    expect(c.rows.filter((r) => r.varied === 'fee').map((r) => r.feeBps)).toEqual(COST_MULTIPLES.map((m) => 10 * m));
    expect(c.rows.filter((r) => r.varied === 'slippage').map((r) => r.slippageBps)).toEqual(COST_MULTIPLES.map((m) => 4 * m));
    expect(c.rows.find((r) => r.varied === 'fee' && r.multiple === 3)).toMatchObject({
      feeBps: 30,
      slippageBps: 4,
      returnPct: -12,
      feesPaid: '90.00',
    });
    // the configured run is reused, never run again
    expect(calls.some(([f, s]) => f === 10 && s === 4)).toBe(false);
    expect(c.breakEven.feeBps).not.toBeNull();
    expect(Math.abs(c.breakEven.feeBps! - 18)).toBeLessThanOrEqual(0.1); // 20 − fee − 2 = 0
    expect(calls.length).toBeLessThanOrEqual(10 + 7); // ten sweep runs, then 10 → 20 bps halved to 0.1
  });

  it('searches past 3× when the run still makes money there', async () => {
    const { rerun } = linear(200);
    const c = await costSensitivity(10, 0, await rerun(10, 0), rerun);
    expect(Math.abs(c.breakEven.feeBps! - 200)).toBeLessThanOrEqual(0.1);
    // slippage configured at 0: its multiples are of the fee
    expect(c.slippageBaseBps).toBe(10);
    expect(c.rows.filter((r) => r.varied === 'slippage').map((r) => r.slippageBps)).toEqual([0, 5, 10, 15, 20, 30]);
  });

  it('has no break-even fee for a run that loses money without fees, or still earns at 10000 bps', async () => {
    const losing = linear(-1);
    const c = await costSensitivity(10, 0, await losing.rerun(10, 0), losing.rerun);
    expect(c.breakEven.feeBps).toBeNull();
    expect(c.breakEven.note).toMatch(/does not make money even without fees \(return -1\.00 % at 0 bps/);
    const always = {
      rerun: async (): Promise<CostRunFigures> => ({ returnPct: 5, finalEquity: 10_500, feesPaid: '1', trades: 1, sharpe: 1 }),
    };
    const d = await costSensitivity(10, 0, await always.rerun(), always.rerun);
    expect(d.breakEven).toMatchObject({ feeBps: null, note: expect.stringMatching(/still makes money at a fee of 10000 bps/) });
  });
});
