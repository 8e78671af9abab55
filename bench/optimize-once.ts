/**
 * One timed optimize run with one worker, printed as JSON on stdout: the optimizer bench
 * (`backtest-replay.ts`) starts it under `taskset -c 0` for a baseline confined to one core.
 *
 *   node --import tsx bench/optimize-once.ts WARM
 */
import { timeOptimize } from './backtest-replay.js';

const warm = Number(process.argv[2]);
if (!Number.isInteger(warm) || warm < 1)
  throw new Error(`WARM: expected a whole number ≥ 1 (results before the steady phase), got ${process.argv[2]}`);
process.stdout.write(`${JSON.stringify(await timeOptimize(1, warm))}\n`);
