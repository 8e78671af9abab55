import { type Command } from 'commander';
import type { DataFlags } from '../../../backtest/data-source.js';
import type { CliContext } from '../context.js';
import { addDataOptions } from './data-options.js';

export interface VerifyFlags extends DataFlags {
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
 * Its code (verify-action.ts) loads when it runs, not for `--help`.
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
    .action(async (flags: VerifyFlags) => (await import('./verify-action.js')).verifyAction(flags, ctx));
}
