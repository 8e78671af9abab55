import { parseBps, parseInitial } from '../../../backtest/cli-input.js';
import { loadSeries } from '../../../backtest/data-source.js';
import { seriesSource } from '../../../backtest/verify/checks.js';
import { verifyLines, verifyStrategy, verifyToJson } from '../../../backtest/verify/verify.js';
import { loadStrategy, marketsOf, parseParamString, resolveParams } from '../../strategy/index.js';
import { type CliContext, writeLine } from '../context.js';
import type { VerifyFlags } from './verify.js';

/** What `tradeloop verify` does once its flags are read (loaded only then: see verify.ts). */
export async function verifyAction(flags: VerifyFlags, ctx: CliContext): Promise<void> {
  const feeBps = parseBps(flags.feeBps, '--fee-bps', 10);
  const slippageBps = parseBps(flags.slippageBps, '--slippage-bps', 0);
  const initial = parseInitial(flags.initial);
  const definition = await loadStrategy(flags.strategy);
  const raw = flags.params === undefined ? {} : parseParamString(flags.params);
  if (flags.market !== undefined && 'market' in definition.params.shape) raw.market ??= flags.market;
  const params = resolveParams(definition, raw, '--params');
  const series = await loadSeries(flags, marketsOf(definition, params as never), { ohlc: true });
  const report = await verifyStrategy({ definition, params, source: seriesSource(series), initial, feeBps, slippageBps });
  if (flags.json) writeLine(ctx.stdout, JSON.stringify(verifyToJson(report)));
  else for (const line of verifyLines(report)) writeLine(ctx.stdout, line);
  if (!report.passed) ctx.exitCode = 1;
}
