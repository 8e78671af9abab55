import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseInitial } from '../../../backtest/cli-input.js';
import { renderDivergenceHtml } from '../../../backtest/divergence/html.js';
import { divergenceLines, divergenceToJson, driftExceeded } from '../../../backtest/divergence/output.js';
import { buildDivergenceReport } from '../../../backtest/divergence/divergence.js';
import { D, InputError, type Dec } from '../../core/index.js';
import { type CliContext, writeLine } from '../context.js';
import { DRIFT_EXIT_CODE, type DivergenceFlags } from './divergence.js';

/** What `tradeloop divergence` does once its flags are read (loaded only then: see divergence.ts). */
export async function divergenceAction(flags: DivergenceFlags, ctx: CliContext): Promise<void> {
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
    writeFileSync(join(flags.out, 'report.html'), renderDivergenceHtml(report, { ...(maxDrift && { max: maxDrift.toFixed() }), exceeded }));
  }
  if (flags.json) writeLine(ctx.stdout, JSON.stringify({ ...json, ...(flags.out !== undefined && { out: flags.out }) }));
  else {
    for (const line of divergenceLines(report, maxDrift)) writeLine(ctx.stdout, line);
    if (flags.out !== undefined) writeLine(ctx.stdout, `report: ${join(flags.out, 'report.html')} (divergence.json beside it)`);
  }
  if (exceeded) ctx.exitCode = DRIFT_EXIT_CODE;
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
