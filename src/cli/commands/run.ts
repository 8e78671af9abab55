import { type Command } from 'commander';
import type { CliContext } from '../context.js';

export interface RunOptions {
  readonly config?: string;
  readonly strategy?: string;
  readonly params?: string;
  readonly duration?: string;
  readonly paper?: boolean;
  readonly json?: boolean;
  readonly fresh?: boolean;
  readonly journalMoved?: boolean;
  readonly ui?: boolean;
}

/** `tradeloop run`: runs strategies live (or on paper) until Ctrl-C or --duration. Its code (run-action.ts) loads when it runs, not for `--help`. */
export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description(
      'run strategies live against the configured environment (the embedded local sandbox by default) until Ctrl-C or --duration',
    )
    .option(
      '-c, --config <file>',
      'YAML config file (default: ./config/default.yaml, else the built-in defaults: the embedded local sandbox)',
    )
    .option('--strategy <name>', 'run this strategy instead of the configured ones (built-in name, .ts/.js path, or package)')
    .option('--params <k=v,...>', 'parameters of --strategy, e.g. fast=5,slow=20')
    .option('--duration <time>', 'stop after this long, e.g. 240s, 10m, 1h')
    .option(
      '--paper',
      "never place an order: on the embedded sandbox, fills are simulated by it; in sandbox or production (or with api.base_url), against the platform's live order books and quotes, from the paper: balances (nothing is written to the platform)",
    )
    .option('--json', 'print the summary as one JSON line on stdout')
    .option(
      '--fresh',
      "local: move the journal and the embedded sandbox's world to .tradeloop/archive/<time>/ and start both anew; with --paper elsewhere: move the paper journal (and its paper account) there",
    )
    .option('--ui', 'serve the dashboard, control API and /metrics (ui.host and ui.port in the config; default http://127.0.0.1:8787/)')
    .option(
      '--journal-moved',
      'the journal file was moved (another disk, a restore from backup) and the original is gone: bind it to its new file instead of refusing it as a copy',
    )
    .action(async (opts: RunOptions) => {
      ctx.exitCode = await (await import('./run-action.js')).runCommand(opts, ctx);
    });
}
