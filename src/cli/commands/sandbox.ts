import { type Command } from 'commander';
import type { CliContext } from '../context.js';

export interface SandboxFlags {
  readonly port?: string;
  readonly seed?: string;
  readonly config?: string;
  readonly speed?: string;
  readonly replay: string[];
  readonly faults?: string;
  readonly state?: string;
  readonly rateLimits?: string;
  readonly truth?: boolean;
  readonly documents?: boolean;
  readonly clientId?: string;
  readonly shapes?: string;
}

/** Environment variable holding the secret of `--client-id` / `local.client_id` (never read from files or flags). */
export const SANDBOX_SECRET_ENV = 'TRADELOOP_SANDBOX_CLIENT_SECRET';

const CREDENTIAL_HELP = `
Credential:
  By default the sandbox accepts client id tradeloop-local with secret tradeloop-local-secret.
  --client-id ID (or config local.client_id) replaces it: the sandbox then accepts only ID, with the
  secret taken from the environment variable ${SANDBOX_SECRET_ENV} (never from files or flags):
    ${SANDBOX_SECRET_ENV}=... tradeloop sandbox --client-id my-bot
`;

/**
 * `tradeloop sandbox`: runs the local sandbox in the foreground until Ctrl-C. Prints exactly
 * `sandbox listening on http://127.0.0.1:<port>` on stdout when ready (scripts wait for it), then
 * one line each for the active faults, rate limits and state file, `identity documents: on` when
 * `--documents` (or config local.documents) enables them, `shapes: examples …` when `--shapes examples`
 * (or config local.shapes) picks the examples' response shapes, and `client id: <id>` when `--client-id`
 * (or config local.client_id) replaces the development credential; logs go to stderr (the world's
 * instance id is in the `sandbox listening` log line and the `x-sandbox-instance` header).
 */
export function registerSandbox(program: Command, ctx: CliContext): void {
  program
    .command('sandbox')
    .description('run the local sandbox: the simulated platform over HTTP on 127.0.0.1 (Ctrl-C stops it)')
    .option('-p, --port <n>', 'TCP port; 0 picks a free one (default: config local.port)')
    .option('-s, --seed <n>', 'seed of the simulated market (default: config local.seed)')
    .option('-c, --config <file>', 'YAML config file whose local: section sets port, seed, speed and funding')
    .option('--speed <x>', 'simulated time runs this many times faster than real time (default: config local.speed)')
    .option('--replay <market=file>', 'replay a CSV/JSON price file for a market instead of the synthetic path (repeatable)', collect, [])
    .option(
      '--faults <spec>',
      'inject faults: mode[@OperationId|/path]=value,… e.g. latency=50ms,error5xx=0.05,error429=1%,drop=0.01,truncate=0.01,commit-drop@CreateOrder=once,seed=7,retry-after=2s',
    )
    .option(
      '--state <file>',
      'keep the world in FILE, restored at start: SQLite saved before every answer, or a whole snapshot saved every 10 s and on exit when FILE ends in .json',
    )
    .option(
      '--rate-limits <spec>',
      'apply the platform rate limits: on, off, or window=10s,penalty=30s,scale=0.1 (default: config local.rate_limits, off)',
    )
    .option('--truth', 'serve GET /__sandbox/truth (every order, quote execution and transfer with ref_ids) to loopback callers')
    .option(
      '--documents',
      'serve identity documents (upload URLs and lists; a closed beta on the platform, 403 without it) (default: config local.documents)',
    )
    .option(
      '--shapes <mode>',
      'response shapes where the OpenAPI schemas and examples disagree (ListTickers, ListPrices, ListHistoricalPrices): schema or examples (default: config local.shapes, schema)',
    )
    .option(
      '--client-id <id>',
      `accept only this client id, with the secret from ${SANDBOX_SECRET_ENV}, instead of tradeloop-local (default: config local.client_id)`,
    )
    .addHelpText('after', CREDENTIAL_HELP)
    .action(async (flags: SandboxFlags) => (await import('./sandbox-action.js')).sandboxAction(flags, ctx));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
