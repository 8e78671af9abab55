/** The deflated Sharpe ratio against the paper's worked example, the normal quantile, and edge warnings. */
import { describe, expect, it } from 'vitest';
import { deflatedSharpe, edgeWarnings, normInv } from './luck.js';

describe('deflatedSharpe', () => {
  it("matches Bailey and López de Prado's worked example (DSR ≈ 0.9004)", () => {
    // 1,250 daily returns, annualised Sharpe 2.5, skew −3, kurtosis 10, 100 trials whose annualised Sharpe ratios vary by 0.5
    const r = deflatedSharpe({ sharpe: 2.5 / Math.sqrt(250), periods: 1250, trials: 100, variance: 0.5 / 250, skew: -3, kurtosis: 10 });
    expect(r.expectedMaxSharpe).toBeCloseTo(0.1132, 4);
    expect(r.dsr).toBeCloseTo(0.9004, 3);
  });

  it('falls as more trials are tried for the same best', () => {
    const at = (trials: number): number => deflatedSharpe({ sharpe: 0.05, periods: 1000, trials, variance: 0.0004 }).dsr;
    expect(at(10)).toBeGreaterThan(at(100));
    expect(at(100)).toBeGreaterThan(at(10_000));
  });

  it('inverts the normal CDF', () => {
    expect(normInv(0.975)).toBeCloseTo(1.959964, 5);
    expect(normInv(0.5)).toBe(0);
    expect(normInv(0.001)).toBeCloseTo(-3.090232, 5);
  });
});

describe('edgeWarnings', () => {
  it('flags a best on a grid edge or near a range bound, with the direction to widen', () => {
    const w = edgeWarnings({ entry: 96, exit: 10, lr: 0.0101 }, [
      { name: 'entry', low: 10, high: 96, continuous: false },
      { name: 'exit', low: 5, high: 20, continuous: false },
      { name: 'lr', low: 0.01, high: 1, continuous: true },
    ]);
    expect(w.map((x) => [x.param, x.edge])).toEqual([
      ['entry', 'high'],
      ['lr', 'low'],
    ]);
    expect(w[0]!.message).toBe(
      'the best entry=96 is at the top of the searched range 10..96: the true best may lie beyond; widen it upward',
    );
  });
});
