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
import { deflatedSharpe } from '../../backtest/luck.js';
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
  it('gives the deflated Sharpe ratio of the best for the trials tried, edge warnings, and every metric in results.csv', { timeout: 120_000 }, async () => {
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
    expect(j.luck.deflated_sharpe).toMatchObject({ trials: 16, periods: 599, best_sharpe: best.metrics.sharpe, assumes_normal_returns: true });
    expect(j.luck.deflated_sharpe.dsr).toBeCloseTo(expected.dsr, 12);
    const atEdge = [['fast', 2, 8], ['slow', 10, 40]].filter(([p, lo, hi]) => best.params[p as string] === lo || best.params[p as string] === hi).map(([p]) => p);
    expect(j.luck.warnings.map((w: { param: string }) => w.param)).toEqual(atEdge);

    const lines = readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(17);
    const head = lines[0]!.split(',');
    for (const col of ['rank', 'fast', 'slow', 'sharpe', 'sharpe_out_of_sample', 'return_pct', 'max_drawdown_pct', 'trades', 'fees', 'sortino', 'error']) expect(head).toContain(col);
    const first = Object.fromEntries(head.map((h, i) => [h, lines[1]!.split(',')[i]]));
    expect(Number(first.return_pct)).toBe(best.metrics.return_pct);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('deflated Sharpe ratio');

    const text = await runCli(base);
    expect(text.stdout).toMatch(/deflated Sharpe ratio \d\.\d{3}: the probability that the best's true Sharpe ratio is above 0, given that it is the best of 16 trials/);
  });

  it('writes in- and out-of-sample columns of every metric with walk-forward', { timeout: 120_000 }, async () => {
    const out = join(dir, 'wf');
    const r = await runCli([...base, '--walk-forward', '2', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const head = readFileSync(join(out, 'results.csv'), 'utf8').split('\n')[0]!.split(',');
    for (const col of ['in_return_pct', 'out_return_pct', 'in_sharpe', 'out_sharpe', 'in_trades', 'out_max_drawdown_pct']) expect(head).toContain(col);
  });
});
