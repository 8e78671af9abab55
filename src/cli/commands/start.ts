import { type Command } from 'commander';
import { loadConfigFile } from '../../config/load.js';
import { resolveEnvironment } from '../../config/environment.js';
import { type CliContext, writeLine } from '../context.js';

/**
 * `tradeloop start`: the main job behind `npm start`. It checks the configuration, prints the
 * environment it would trade in and the commands available.
 */
export function registerStart(program: Command, ctx: CliContext): void {
  program
    .command('start')
    .description('check the configuration and show the environment and the commands, without trading')
    .option('-c, --config <file>', 'YAML config file', 'config/default.yaml')
    .action((opts: { config: string }) => {
      const config = loadConfigFile(opts.config);
      const env = resolveEnvironment(config, ctx.env);
      writeLine(ctx.stdout, `config ${opts.config}: ok`);
      writeLine(ctx.stdout, `environment: ${env.name}`);
      writeLine(ctx.stdout, `  api url:   ${env.apiUrl ?? '(the embedded local sandbox, started on demand)'}`);
      writeLine(ctx.stdout, `  token url: ${env.tokenUrl ?? '(the embedded local sandbox, started on demand)'}`);
      writeLine(ctx.stdout, `  client id: ${env.clientId}${env.localCredential ? ' (local development credential)' : ''}`);
      writeLine(ctx.stdout, '');
      writeLine(ctx.stdout, 'commands:');
      for (const cmd of program.commands) writeLine(ctx.stdout, `  tradeloop ${cmd.name().padEnd(14)} ${cmd.description()}`);
    });
}
