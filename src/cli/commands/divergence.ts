import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Command } from 'commander';
import { parseInitial } from '../../../backtest/cli-input.js';
import { renderDivergenceHtml } from '../../../backtest/divergence/html.js';
import { divergenceLines, divergenceToJson, driftExceeded } from '../../../backtest/divergence/output.js';
import { buildDivergenceReport } from '../../../backtest/divergence/divergence.js';
import { D, InputError, type Dec } from '../../core/index.js';
import { type CliContext, writeLine } from '../context.js';

interface DivergenceFlags {
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
 * divergence.json. Exits 4 when the drift passes `--max-drift`, 2 on bad input.
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
    .action(async (flags: DivergenceFlags) => {
      const maxDrift = parseMaxDrift(flags.maxDrift);
      const report = await buildDivergenceReport({
        recording: flags.recording,
        journal: flags.journal,
        cwd: process.cwd(),
        initial: parseInitial(flags.initial),
        latencyMs: wholeMs(flags.latencyMs, '--latency-ms', 0),
        toleranceMs: wholeMs(flags.toleranceMs, '--tolerance-ms', 1000),
      });
      const exceeded = driftExceeded(report, maxDrift);
      const json = divergenceToJson(report, maxDrift);
      if (flags.out !== undefined) {
        mkdirSync(flags.out, { recursive: true });
        writeFileSync(join(flags.out, 'divergence.json'), `${JSON.stringify(json, null, 2)}\n`);
        writeFileSync(
          join(flags.out, 'report.html'),
          renderDivergenceHtml(report, { ...(maxDrift && { max: maxDrift.toFixed() }), exceeded }),
        );
      }
      if (flags.json) writeLine(ctx.stdout, JSON.stringify({ ...json, ...(flags.out !== undefined && { out: flags.out }) }));
      else {
        for (const line of divergenceLines(report, maxDrift)) writeLine(ctx.stdout, line);
        if (flags.out !== undefined) writeLine(ctx.stdout, `report: ${join(flags.out, 'report.html')} (divergence.json beside it)`);
      }
      if (exceeded) ctx.exitCode = DRIFT_EXIT_CODE;
    });
}

function parseMaxDrift(raw: string | undefined): Dec | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw))
    throw new InputError('--max-drift', `expected an amount of the quote asset from 0, e.g. 25 or 0.5, got ${JSON.stringify(raw)}`);
  return new D(raw);
}

function wholeMs(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new InputError(flag, `expected whole milliseconds from 0, e.g. 250, got ${JSON.stringify(raw)}`);
  return Number(raw);
}
