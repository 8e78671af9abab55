/**
 * One baseline of the dense replay workload (`backtest-replay.ts`) in a process of its own, so that
 * code V8 compiled for other runs does not shape its figure:
 *
 *   node --import tsx bench/replay-once.ts watch|broke RUNS [POINTS]
 *
 * `watch`: two SMAs a point and no strategy logic (watch-only); `broke`: sma-cross 50/200 with USD
 * 0.001, every per-point step and never an order. Prints one line of JSON: the elapsed ms of RUNS runs
 * after a first one (dropped: the path still compiling).
 */
import { runBacktest } from '../backtest/run.js';
import { resolveParams } from '../src/strategy/index.js';
import smaCross from '../strategies/sma-cross.js';
import { walkSeries, watchOnly } from './backtest-replay.js';

const mode = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const series = walkSeries(Number(process.argv[4] ?? 1_000_000));
if (mode !== 'watch' && mode !== 'broke') throw new Error(`mode must be watch or broke, got ${mode}`);
const params = resolveParams(smaCross, { fast: 50, slow: 200 });
const once = async (): Promise<number> => {
  if (mode === 'watch') return (await runBacktest({ definition: watchOnly, params: {}, series })).elapsedMs;
  const r = await runBacktest({ definition: smaCross, params, series, initial: { USD: '0.001' } });
  if (r.intents.length !== 0) throw new Error(`the no-money baseline made ${r.intents.length} intents`);
  return r.elapsedMs;
};
await once();
const ms: number[] = [];
for (let i = 0; i < runs; i++) ms.push(await once());
process.stdout.write(`${JSON.stringify({ ms })}\n`);
