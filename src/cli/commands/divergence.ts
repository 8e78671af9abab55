import { type Command } from 'commander';
import type { CliContext } from '../context.js';

export interface DivergenceFlags {
  readonly recording: string;
  readonly journal: string;
  readonly json?: boolean;
  readonly out?: string;
  readonly maxDrift?: string;
  readonly latencyMs?: string;
  readonly toleranceMs?: string;
  readonly initial: string;
}

/** Exit code when the drift passes `--max-drift`. */
export const DRIFT_EXIT_CODE = 4;

/**
 * `tradeloop divergence`: re-runs the strategies of a recorded live or paper run on its recording
 * and compares decision by decision with its journal (backtest/divergence/divergence.ts). Prints where they
 * first differ, what each kind of difference cost and why; `--out DIR` writes report.html and
 * divergence.json. Exits 4 when the drift passes `--max-drift`, 2 on bad input. Its code
 * (divergence-action.ts) loads when it runs, not for `--help`.
 */
export function registerDivergence(program: Command, ctx: CliContext): void {
  program
    .command('divergence')
    .description('re-run a recorded live or paper run on its recording and explain every difference from its journal')
    .requiredOption('--recording <file>', 'the stream recording of the run (streams.record), with its run header')
    .requiredOption('--journal <file>', "the run's journal (journal.path); opened read-only")
    .option('--json', 'print the report as one JSON object on one line')
    .option('--out <dir>', 'write report.html (with the divergence timeline) and divergence.json here')
    .option('--max-drift <amount>', 'exit 4 when |live P&L − replay P&L| passes this amount of the quote asset, e.g. 25')
    .option('--latency-ms <n>', 'decision-to-venue latency of the book replay (default 0)')
    .option('--tolerance-ms <n>', 'decisions further apart are not the same act; fills further apart differ in time (default 1000)')
    .option('--initial <ASSET=AMOUNT,...>', 'starting balances when the recording holds no balances response', 'USD=10000')
    .action(async (flags: DivergenceFlags) => (await import('./divergence-action.js')).divergenceAction(flags, ctx));
}
