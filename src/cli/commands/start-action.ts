import type { Command } from 'commander';
import { ConfigError, type ConfigProblem } from '../../config/load.js';
import { configLabel, describeConfigSource, loadConfig } from '../../config/locate.js';
import { MissingSecretError, resolveEnvironment, type ResolvedEnvironment } from '../../config/environment.js';
import { loadConfiguredStrategies, type LoadedStrategy } from '../../live/load-strategies.js';
import { type CliContext, writeLine } from '../context.js';

/** What `tradeloop start` does once its flags are read (loaded only then: see start.ts). */
export async function startAction(opts: { config?: string }, ctx: CliContext, program: Command): Promise<void> {
  const { config, source } = loadConfig(opts.config);
  // the credential and the strategies are checked together: every problem in one report
  const problems: ConfigProblem[] = [];
  let env: ResolvedEnvironment | undefined;
  try {
    env = resolveEnvironment(config, ctx.env);
  } catch (e) {
    if (!(e instanceof MissingSecretError)) throw e;
    problems.push({ path: 'environment', message: e.message });
  }
  let strategies: LoadedStrategy[] = [];
  try {
    strategies = config.strategies.length ? await loadConfiguredStrategies(config.strategies, { file: source.file }) : [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    problems.push(...e.problems);
  }
  if (problems.length || env === undefined) throw new ConfigError(configLabel(source), problems);
  writeLine(ctx.stdout, describeConfigSource(source));
  writeLine(ctx.stdout, `check: ok (the file, the credential, ${strategies.length} strategy plugin(s) loaded with their params)`);
  writeLine(ctx.stdout, `environment: ${env.name}`);
  writeLine(ctx.stdout, `  api url:   ${env.apiUrl ?? '(the embedded local sandbox, started on demand)'}`);
  writeLine(ctx.stdout, `  token url: ${env.tokenUrl ?? '(the embedded local sandbox, started on demand)'}`);
  writeLine(ctx.stdout, `  client id: ${env.clientId}${env.localCredential ? ' (local development credential)' : ''}`);
  writeLine(ctx.stdout, 'strategies:');
  if (strategies.length === 0) writeLine(ctx.stdout, '  none configured: tradeloop run needs one under strategies: or --strategy NAME');
  for (const s of strategies)
    writeLine(ctx.stdout, `  ${s.name} (${s.definition.name}) on ${s.markets.join(', ')}: ${JSON.stringify(s.params)}`);
  writeLine(ctx.stdout, '');
  writeLine(ctx.stdout, 'commands:');
  for (const cmd of program.commands) writeLine(ctx.stdout, `  tradeloop ${cmd.name().padEnd(14)} ${cmd.description()}`);
}
