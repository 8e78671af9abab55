/**
 * Only the dense replay workload of `backtest-replay` (sma-cross 50/200 over 1,000,000 points, about
 * 6,300 intents): warm points/s, the cost of an intent, the plain loop and grademark, without the
 * optimize runs that take minutes.
 *
 *   npm run bench dense-replay
 */
import { replayFigure, walkSeries } from './backtest-replay.js';

export async function run(): Promise<void> {
  await replayFigure(walkSeries(1_000_000));
}
