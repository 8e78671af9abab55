/**
 * The portfolio backtest against the single-strategy dense figure of the same total size: sma-cross
 * 50/200 on 4 markets of 250,000 points each (1,000,000 events, one account, 4 strategies) against
 * sma-cross on 1,000,000 points of one market; warm runs, ratios from this one run. Also the merge
 * alone over 1 and 4 markets of the same total (it allocates nothing per event: the heap grown over
 * the whole merge is printed).
 *
 *   npm run bench portfolio-replay
 */
import { performance } from 'node:perf_hooks';
import { MergedSeries, type MarketSeries } from '../backtest/merge.js';
import { runPortfolioBacktest, type PortfolioStrategy } from '../backtest/portfolio.js';
import { runBacktest } from '../backtest/run.js';
import type { MarketSymbol } from '../src/core/index.js';
import { resolveParams } from '../src/strategy/index.js';
import smaCross from '../strategies/sma-cross.js';
import { walkSeries } from './backtest-replay.js';

const TOTAL = 1_000_000;
const MARKETS: MarketSymbol[] = ['BTCUSD', 'ETHUSD', 'LTCUSD', 'BCHUSD'];
const RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timed(run: () => Promise<unknown>): Promise<{ warmMs: number; peakRss: number }> {
  await run(); // cold
  const ms: number[] = [];
  let peakRss = process.memoryUsage().rss;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  return { warmMs: median(ms), peakRss };
}

function mergeHeap(series: readonly MarketSeries[]): { ms: number; heapGrowth: number } {
  const m = new MergedSeries(series);
  const h0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  let sum = 0;
  for (let k = m.next(); k >= 0; k = m.next()) sum += series[k]!.prices[m.point]!;
  const ms = performance.now() - t0;
  if (sum < 0) process.stdout.write('');
  return { ms, heapGrowth: process.memoryUsage().heapUsed - h0 };
}

export async function run(): Promise<void> {
  const one = walkSeries(TOTAL);
  const each = TOTAL / MARKETS.length;
  const series: MarketSeries[] = MARKETS.map((market, i) => {
    const w = walkSeries(each, 42 + i);
    return { market, times: w.times, prices: w.prices, source: w.source };
  });
  const strategies: PortfolioStrategy[] = MARKETS.map((market) => {
    const params = resolveParams(smaCross, { fast: 50, slow: 200, market, size_pct: 25 }) as Record<string, unknown>;
    return { name: `sma-${market.toLowerCase()}`, definition: smaCross, params, markets: [market] };
  });
  const params = resolveParams(smaCross, { fast: 50, slow: 200 });
  const single = await timed(() => runBacktest({ definition: smaCross, params, series: one, figuresOnly: true }));
  const portfolio = await timed(() => runPortfolioBacktest({ strategies, series }));
  const rate = (ms: number): string => `${(TOTAL / (ms / 1000) / 1e6).toFixed(2)} M events/s`;
  process.stdout.write(
    `single strategy, 1 market × ${TOTAL.toLocaleString('en-US')} points: ${single.warmMs.toFixed(0)} ms warm (${rate(single.warmMs)})\n`,
  );
  process.stdout.write(
    `portfolio, ${MARKETS.length} strategies × ${MARKETS.length} markets × ${each.toLocaleString('en-US')} points: ${portfolio.warmMs.toFixed(0)} ms warm (${rate(portfolio.warmMs)})\n`,
  );
  process.stdout.write(`  throughput ratio portfolio/single: ${(single.warmMs / portfolio.warmMs).toFixed(2)} (target ≥ 0.8)\n`);
  process.stdout.write(
    `  peak RSS seen: single ${(single.peakRss / 2 ** 20).toFixed(0)} MB, after the portfolio runs ${(portfolio.peakRss / 2 ** 20).toFixed(0)} MB (same process: the second includes the first's heap)\n`,
  );
  const m1 = mergeHeap([{ market: 'BTCUSD', times: one.times, prices: one.prices, source: one.source }]);
  const m4 = mergeHeap(series);
  process.stdout.write(
    `  merge alone: 1 market ${m1.ms.toFixed(1)} ms (heap +${(m1.heapGrowth / 1024).toFixed(0)} KB), 4 markets ${m4.ms.toFixed(1)} ms (heap +${(m4.heapGrowth / 1024).toFixed(0)} KB) for ${TOTAL.toLocaleString('en-US')} events\n`,
  );
}
