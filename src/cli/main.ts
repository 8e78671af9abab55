import { Command, CommanderError, Help } from 'commander';
import { TradeloopError } from '../core/errors.js';
import { redactDeep } from '../log/redact.js';
import { COMMANDS, commandName } from './commands/index.js';
import { installedVersion } from './project/install.js';
import { CliExit, type CliContext, writeLine } from './context.js';

/** The top-level command `argv` runs (`help NAME` runs NAME's help), or undefined for none. */
export function commandOf(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-')) return undefined;
  return first === 'help' && argv[1] !== undefined && !argv[1].startsWith('-') ? argv[1] : first;
}

/**
 * Builds the `tradeloop` program. Only the modules of the commands in `load` are imported (all of
 * them when it is omitted); every other command is listed by its name and description alone, enough
 * for `--help`, the suggestions for a mistyped name and `tradeloop start`'s list.
 */
export async function buildProgram(ctx: CliContext, load?: ReadonlySet<string>): Promise<Command> {
  const terms = new Map<Command, string>();
  const program = new Command('tradeloop')
    .description('market-data and trading-bot framework: API client, local sandbox, live runner, backtester')
    .version(installedVersion())
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .exitOverride()
    .configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? new Help().subcommandTerm(cmd) });
  for (const module of COMMANDS) {
    const names = Object.keys(module.commands).map(commandName);
    if (load === undefined || names.some((n) => load.has(n))) {
      (await module.load())(program, ctx);
      continue;
    }
    for (const [term, description] of Object.entries(module.commands)) {
      const listed = new Command(commandName(term)).description(description);
      terms.set(listed, term);
      program.addCommand(listed);
    }
  }
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
  try {
    const command = commandOf(argv);
    const program = await buildProgram(ctx, new Set(command === undefined ? [] : [command]));
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (e) {
    return exitCodeFor(e, ctx);
  }
}

async function exitCodeFor(e: unknown, ctx: CliContext): Promise<number> {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    return e.exitCode === 0 ? 0 : 2;
  }
  if (e instanceof CliExit) {
    if (e.message) writeLine(ctx.stderr, e.message);
    return e.code;
  }
  // loaded only to word a failure: they bring the HTTP client's and the config's modules
  const [{ wordFailure }, { ConfigError }] = await Promise.all([import('./failures.js'), import('../config/load.js')]);
  // a file that failed its schema still has its plugins and params checked: every problem in one report
  if (e instanceof ConfigError && e.strategiesUnchecked.length > 0)
    e = await (await import('../live/load-strategies.js')).withStrategyProblems(e);
  const worded = wordFailure(e, ctx.apiTarget, ctx.portSetting);
  if (worded !== undefined) {
    writeLine(ctx.stderr, String(redactDeep(worded.message)));
    return worded.code;
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
