import { type Command } from 'commander';
import type { CliContext } from '../context.js';

/**
 * `tradeloop start`: the main job behind `npm start`. It checks the configuration the way a run
 * would (the file, the credentials, every strategy plugin loaded and every params block validated,
 * all problems at once, exit 2), then prints the environment it would trade in and the commands.
 * Its code (start-action.ts) loads when it runs, not for `--help`.
 */
export function registerStart(program: Command, ctx: CliContext): void {
  program
    .command('start')
    .description(
      'check the configuration (every plugin loaded, every params block validated) and show the environment and the commands, without trading',
    )
    .option('-c, --config <file>', 'YAML config file (default: ./config/default.yaml, else the built-in defaults)')
    .action(async (opts: { config?: string }) => (await import('./start-action.js')).startAction(opts, ctx, program));
}
