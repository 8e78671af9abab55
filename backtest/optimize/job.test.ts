import { describe, expect, it } from 'vitest';
import { resolveParams } from '../../src/strategy/params.js';
import smaCross from '../../strategies/sma-cross.js';
import { runJob, type Job, type JobContext } from './job.js';
import { runBacktest } from '../run.js';

const T0 = Date.UTC(2024, 0, 1);
const N = 400;
const times = Float64Array.from({ length: N }, (_, i) => T0 + i * 60_000);
const prices = Float64Array.from({ length: N }, (_, i) => Math.round((100 + 8 * Math.sin(i / 9) + 3 * Math.sin(i / 2.3)) * 100) / 100);
const ctx: JobContext = {
  strategy: 'sma-cross',
  source: 'wave',
  times,
  prices,
  baseParams: {},
  feeBps: 10,
  slippageBps: 0,
  initial: { USD: '10000' },
};
const jobs: Job[] = [
  { id: 0, params: { fast: 3, slow: 8 }, start: 0, end: N },
  { id: 1, params: { fast: 5, slow: 20 }, start: 0, end: N },
  { id: 2, params: { fast: 4, slow: 12 }, start: 100, end: 300 },
  { id: 3, params: { fast: 2, slow: 6 }, start: 0, end: N },
];

/** What a job's result must be: the figures of a plain backtest of its combination and range. */
async function expected(job: Job): Promise<Record<string, unknown>> {
  const run = await runBacktest({
    definition: smaCross,
    params: resolveParams(smaCross, job.params, 'grid'),
    series: { source: 'wave', length: N, times, prices },
    range: { start: job.start, end: job.end },
    initial: { USD: '10000' },
  });
  expect(run.trades.length).toBeGreaterThan(1);
  return { ...run.metrics };
}

describe('runJob', () => {
  it('gives each job the figures of a plain backtest, one after another in a thread (its equity buffer reused)', async () => {
    for (const job of jobs) {
      const r = await runJob(smaCross, ctx, job);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.metrics.final_equity).toBe((await expected(job)).finalEquity);
      if (r.ok) expect(r.metrics.sharpe).toBe((await expected(job)).sharpe);
    }
  });

  it('keeps jobs run at once apart: each takes its own buffer, so the results match those run one by one', async () => {
    const oneByOne = [];
    for (const job of jobs) oneByOne.push(await runJob(smaCross, ctx, job));
    const atOnce = await Promise.all(jobs.map((job) => runJob(smaCross, ctx, job)));
    expect(atOnce).toEqual(oneByOne);
    expect(new Set(atOnce.map((r) => (r.ok ? r.tradesHash : r.error))).size).toBe(jobs.length);
  });

  it('answers a bad combination as a failed result and the next job still runs whole', async () => {
    const bad = await runJob(smaCross, ctx, { id: 9, params: { fast: 20, slow: 5 }, start: 0, end: N });
    expect(bad).toMatchObject({ id: 9, ok: false, error: expect.stringMatching(/fast/) });
    const next = await runJob(smaCross, ctx, jobs[1]!);
    expect(next.ok && next.metrics.final_equity).toBe((await expected(jobs[1]!)).finalEquity);
  });
});
