/**
 * The search space from a params schema and `--grid`, and TPE against random search on two standard
 * test functions (a shifted sphere in 4 dimensions and Branin), seeded, averaged over 8 seeds at a
 * fixed budget of 60 trials: TPE's mean best must be lower.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GridValue } from './grid.js';
import { randomTrial, searchSpace, seededRandom, type SearchSpace } from './search-space.js';
import { type Observed, phi, tpeSuggest } from './search-tpe.js';

describe('searchSpace', () => {
  const schema = z.object({
    fast: z.number().int().gt(0).max(50).default(10),
    lr: z.number().min(0.001).max(1).meta({ scale: 'log' }).default(0.1),
    mode: z.enum(['a', 'b']).default('a'),
    market: z.enum(['BTCUSD', 'ETHUSD']).default('BTCUSD'),
    slow: z.number().int().min(2).default(30),
  });

  it('reads bounds, whole numbers, log scale and choices from the schema', () => {
    expect(searchSpace(schema, undefined).dimensions).toEqual([
      { name: 'fast', kind: 'number', low: 1, high: 50, int: true, log: false },
      { name: 'lr', kind: 'number', low: 0.001, high: 1, int: false, log: true },
      { name: 'mode', kind: 'choice', choices: ['a', 'b'] },
    ]);
  });

  it('lets --grid narrow the schema, with steps, log ranges, lists and fixed values', () => {
    const s = searchSpace(schema, 'fast=0..20,slow=10..100:10,lr=0.01..0.5:log,mode=a|b,market=ETHUSD');
    expect(s.fixed).toEqual({ market: 'ETHUSD' });
    expect(s.dimensions).toEqual([
      { name: 'fast', kind: 'number', low: 1, high: 20, int: true, log: false },
      { name: 'slow', kind: 'number', low: 10, high: 100, int: true, log: false, step: 10 },
      { name: 'lr', kind: 'number', low: 0.01, high: 0.5, int: false, log: true },
      { name: 'mode', kind: 'choice', choices: ['a', 'b'] },
    ]);
    const rand = seededRandom(1);
    for (let k = 0; k < 200; k++) {
      const t = randomTrial(s, rand);
      expect(Number.isInteger(t.fast) && (t.fast as number) >= 1 && (t.fast as number) <= 20).toBe(true);
      expect((t.slow as number) % 10).toBe(0);
      expect(t.lr as number).toBeGreaterThanOrEqual(0.01);
      expect(t.lr as number).toBeLessThanOrEqual(0.5);
    }
  });

  it('names the flag and the fix', () => {
    expect(() => searchSpace(schema, 'fast=20..5')).toThrow(/--grid: fast: the range 20..5 is empty or runs backwards/);
    expect(() => searchSpace(schema, 'lr=0..1:log')).toThrow(/a log scale needs a range above 0/);
    expect(() => searchSpace(z.object({ x: z.string().default('') }), undefined)).toThrow(/no bounded number, enum or boolean/);
  });
});

describe('TPE', () => {
  it('computes the normal CDF', () => {
    expect(phi(0)).toBeCloseTo(0.5, 7);
    expect(phi(1.96)).toBeCloseTo(0.975, 3);
    expect(phi(-1)).toBeCloseTo(0.158655, 5);
  });

  const sphere: Problem = {
    space: { fixed: {}, dimensions: ['a', 'b', 'c', 'd'].map((name) => ({ name, kind: 'number' as const, low: -5, high: 5, int: false, log: false })) },
    f: (p) => ['a', 'b', 'c', 'd'].reduce((s, k) => s + (Number(p[k]) - 1) ** 2, 0),
  };
  const branin: Problem = {
    space: { fixed: {}, dimensions: [{ name: 'x', kind: 'number', low: -5, high: 10, int: false, log: false }, { name: 'y', kind: 'number', low: 0, high: 15, int: false, log: false }] },
    f: (p) => {
      const x = Number(p.x);
      const y = Number(p.y);
      return (y - (5.1 / (4 * Math.PI ** 2)) * x * x + (5 / Math.PI) * x - 6) ** 2 + 10 * (1 - 1 / (8 * Math.PI)) * Math.cos(x) + 10; // minimum 0.397887
    },
  };

  it.each([['sphere', sphere], ['branin', branin]] as const)('beats random search on %s over 8 seeds at 60 trials', (_, problem) => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    const tpe = seeds.map((s) => bestOf(problem, 60, s, true));
    const random = seeds.map((s) => bestOf(problem, 60, s, false));
    const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
    expect(mean(tpe)).toBeLessThan(mean(random));
    expect(tpe.filter((v, i) => v < random[i]!).length).toBeGreaterThanOrEqual(6);
  });

  it('is deterministic for a seed', () => {
    expect(bestOf(branin, 30, 9, true)).toBe(bestOf(branin, 30, 9, true));
  });
});

interface Problem {
  readonly space: SearchSpace;
  readonly f: (p: Readonly<Record<string, GridValue>>) => number;
}

function bestOf(problem: Problem, trials: number, seed: number, tpe: boolean): number {
  const rand = seededRandom(seed);
  const history: Observed[] = [];
  for (let k = 0; k < trials; k++) {
    const p = tpe ? tpeSuggest(problem.space, history, rand) : randomTrial(problem.space, rand);
    history.push({ params: p, loss: problem.f(p) });
  }
  return Math.min(...history.map((h) => h.loss!));
}
