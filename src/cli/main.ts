import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/load.js';
import { TradeloopError } from '../core/errors.js';
import { redactDeep } from '../log/redact.js';
import { COMMANDS } from './commands/index.js';
import { installedVersion } from './project/install.js';
import { CliExit, type CliContext, writeLine } from './context.js';
import { wordFailure } from './failures.js';

/** Builds the `tradeloop` program with every command registered. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('tradeloop')
    .description('market-data and trading-bot framework: API client, local sandbox, live runner, backtester')
    .version(installedVersion())
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .exitOverride();
  for (const register of COMMANDS) register(program, ctx);
  for (const cmd of program.commands) cmd.exitOverride().showHelpAfterError('(run with --help for usage)');
  return program;
}

/**
 * Runs the CLI and returns the exit code: 0 success, 1 failure (API error, trade failure),
 * 2 bad configuration or usage.
 */
export async function main(argv: readonly string[], partial: Partial<CliContext> = {}): Promise<number> {
  const ctx: CliContext = {
    stdout: partial.stdout ?? process.stdout,
    stderr: partial.stderr ?? process.stderr,
    env: partial.env ?? process.env,
    exitCode: 0,
  };
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (e) {
    return exitCodeFor(e, ctx);
  }
}

function exitCodeFor(e: unknown, ctx: CliContext): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    return e.exitCode === 0 ? 0 : 2;
  }
  const worded = wordFailure(e, ctx.apiTarget, ctx.portSetting);
  if (worded !== undefined) {
    writeLine(ctx.stderr, String(redactDeep(worded.message)));
    return worded.code;
  }
  if (e instanceof CliExit) {
    if (e.message) writeLine(ctx.stderr, e.message);
    return e.code;
  }
  if (e instanceof ConfigError) {
    writeLine(ctx.stderr, `error: ${e.message}`);
    return 2;
  }
  if (e instanceof TradeloopError) {
    writeLine(ctx.stderr, `error [${e.code}]: ${String(redactDeep(e.message))}`);
    return e.code === 'INPUT_INVALID' || e.code === 'SECRET_MISSING' ? 2 : 1;
  }
  writeLine(ctx.stderr, `unexpected error: ${String(redactDeep(e instanceof Error ? (e.stack ?? e.message) : String(e)))}`);
  return 1;
}
