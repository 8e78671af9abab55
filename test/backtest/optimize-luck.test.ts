/**
 * `tradeloop optimize` measures luck: --json carries the deflated Sharpe ratio of the best for the
 * number of trials (recomputed here from the rows' own Sharpe ratios), the edge warnings exactly
 * when the best sits on a grid's first or last value, the sentences in the table and report.html,
 * and results.csv holds every metric of every trial (in and out of sample with walk-forward).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deflatedSharpe } from '../../backtest/luck/luck.js';
import { probabilityOfOverfitting } from '../../backtest/luck/pbo.js';
import { YEAR_MS } from '../../backtest/metrics.js';
import { runCli } from '../cli/cli-helpers.js';
import { randomWalk } from '../support/walk.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-optimize-luck-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const csv = join(dir, 'prices.csv');
const walk = randomWalk(600, 5);
writeFileSync(csv, `timestamp,price\n${Array.from(walk.prices, (p, i) => `${walk.times[i]},${p}`).join('\n')}\n`);
const base = ['optimize', '--strategy', 'sma-cross', '--data', csv, '--grid', 'fast=2..8:2,slow=10..40:10', '--workers', '1'];

describe('tradeloop optimize: luck', () => {
  it(
    'gives the deflated Sharpe ratio of the best for the trials tried, edge warnings, and every metric in results.csv',
    { timeout: 120_000 },
    async () => {
      const out = join(dir, 'out');
      const r = await runCli([...base, '--json', '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      const sharpes: number[] = j.rows.map((x: { metrics: { sharpe: number } }) => x.metrics.sharpe);
      const perYear = ((600 - 1) * YEAR_MS) / (walk.times[599]! - walk.times[0]!);
      const mean = sharpes.reduce((a, b) => a + b, 0) / sharpes.length;
      const variance = sharpes.reduce((a, b) => a + (b - mean) ** 2, 0) / (sharpes.length - 1) / perYear;
      const best = j.rows[0];
      const expected = deflatedSharpe({ sharpe: best.metrics.sharpe / Math.sqrt(perYear), periods: 599, trials: 16, variance });
      expect(j.luck.deflated_sharpe).toMatchObject({
        trials: 16,
        periods: 599,
        best_sharpe: best.metrics.sharpe,
        assumes_normal_returns: true,
      });
      expect(j.luck.deflated_sharpe.dsr).toBeCloseTo(expected.dsr, 12);
      const atEdge = [
        ['fast', 2, 8],
        ['slow', 10, 40],
      ]
        .filter(([p, lo, hi]) => best.params[p as string] === lo || best.params[p as string] === hi)
        .map(([p]) => p);
      expect(j.luck.warnings.map((w: { param: string }) => w.param)).toEqual(atEdge);

      const lines = readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(17);
      const head = lines[0]!.split(',');
      for (const col of [
        'rank',
        'fast',
        'slow',
        'sharpe',
        'sharpe_out_of_sample',
        'return_pct',
        'max_drawdown_pct',
        'trades',
        'fees',
        'sortino',
        'error',
      ])
        expect(head).toContain(col);
      const first = Object.fromEntries(head.map((h, i) => [h, lines[1]!.split(',')[i]]));
      expect(Number(first.return_pct)).toBe(best.metrics.return_pct);
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('deflated Sharpe ratio');

      const text = await runCli(base);
      expect(text.stdout).toMatch(
        /deflated Sharpe ratio \d\.\d{3}: the probability that the best's true Sharpe ratio is above 0, given that it is the best of 16 trials/,
      );
    },
  );

  it('writes in- and out-of-sample columns of every metric and the PBO with walk-forward', { timeout: 120_000 }, async () => {
    const out = join(dir, 'wf');
    const r = await runCli([...base, '--walk-forward', '3', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // PBO over the 4 segments of the ranked trials, recomputed from the rows' folds
    type Folds = { rank: number | null; folds?: Array<{ inSample: { sharpe: number }; outOfSample: { sharpe: number } }> };
    const perf = (JSON.parse(r.stdout).rows as Folds[])
      .filter((x) => x.rank !== null)
      .map((x) => [...x.folds!.map((f) => f.inSample.sharpe), x.folds!.at(-1)!.outOfSample.sharpe]);
    expect(JSON.parse(r.stdout).luck.pbo).toEqual(probabilityOfOverfitting(perf));
    expect(JSON.parse(r.stdout).luck.pbo).toMatchObject({ segments: 4, splits: 6 });
    const head = readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]!.split(',');
    for (const col of ['in_return_pct', 'out_return_pct', 'in_sharpe', 'out_sharpe', 'in_trades', 'out_max_drawdown_pct'])
      expect(head).toContain(col);
  });
});

describe('tradeloop optimize --metric a,b', () => {
  it('ranks by the first and gives the Pareto front of all', { timeout: 120_000 }, async () => {
    const r = await runCli([...base, '--metric', 'return,max_drawdown', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.metric).toBe('return');
    expect(j.objectives).toEqual(['return', 'max_drawdown']);
    const all = j.rows.map(
      (x: { params: object; metrics: { return_pct: number; max_drawdown_pct: number } }) =>
        [JSON.stringify(x.params), x.metrics.return_pct, x.metrics.max_drawdown_pct] as const,
    );
    const dominated = (a: readonly [string, number, number]): boolean =>
      all.some((b: readonly [string, number, number]) => b[1] >= a[1] && b[2] <= a[2] && (b[1] > a[1] || b[2] < a[2]));
    expect(j.pareto.map((p: { params: object }) => JSON.stringify(p.params)).sort()).toEqual(
      all
        .filter((a: readonly [string, number, number]) => !dominated(a))
        .map((a: readonly [string, number, number]) => a[0])
        .sort(),
    );
    expect(j.pareto[0].params).toEqual(j.rows[0].params); // the best by return is never dominated
    const bad = await runCli([...base, '--metric', 'return,luck']);
    expect(bad.stderr).toMatch(/--metric: unknown metric "luck"/);
  });
});
