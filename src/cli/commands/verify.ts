import { type Command } from 'commander';
import { parseBps, parseInitial } from '../../../backtest/cli-input.js';
import { loadSeries, type DataFlags } from '../../../backtest/data-source.js';
import { seriesSource } from '../../../backtest/verify/checks.js';
import { verifyLines, verifyStrategy, verifyToJson } from '../../../backtest/verify/verify.js';
import { loadStrategy, marketsOf, parseParamString, resolveParams } from '../../strategy/index.js';
import { type CliContext, writeLine } from '../context.js';
import { addDataOptions } from './backtest.js';

interface VerifyFlags extends DataFlags {
  readonly strategy: string;
  readonly params?: string;
  readonly feeBps?: string;
  readonly slippageBps?: string;
  readonly initial: string;
  readonly json?: boolean;
}

/**
 * `tradeloop verify`: checks a strategy plugin on a price file (see docs/backtest.md, "Verifying a
 * strategy"): determinism, look-ahead, warm-up, its params schema and declared markets. Prints a
 * verdict per check, or one JSON line with `--json`; exits 1 when a check failed, 2 on bad input.
 */
export function registerVerify(program: Command, ctx: CliContext): void {
  const command = program
    .command('verify')
    .description('check a strategy plugin before trusting it: determinism, no look-ahead, enough warm-up, its params schema and markets')
    .requiredOption('-s, --strategy <name>', 'built-in strategy name or path to a plugin file');
  addDataOptions(command)
    .option('-p, --params <k=v,...>', "strategy parameters, e.g. fast=10,slow=30 (default: the schema's defaults)")
    .option('--fee-bps <n>', 'fee in basis points of traded notional (default 10)')
    .option('--slippage-bps <n>', 'slippage against the trader in basis points (default 0)')
    .option('--initial <ASSET=AMOUNT,...>', 'starting balances', 'USD=10000')
    .option('--json', 'print one JSON object on one line')
    .action(async (flags: VerifyFlags) => {
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
    });
}
