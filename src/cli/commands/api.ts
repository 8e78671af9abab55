import { type Command } from 'commander';
import type { CliContext } from '../context.js';

export interface ApiFlags {
  readonly body?: string;
  readonly all?: boolean;
  readonly list?: boolean;
  readonly config?: string;
  readonly baseUrl?: string;
  readonly tokenUrl?: string;
}

const EXAMPLES = `
Examples:
  tradeloop api --list
  tradeloop api GetOrderBook --market BTCUSD --base-url http://127.0.0.1:8080/v2
  tradeloop api ListTransfers --statuses PENDING --statuses FAILED --created_at.gte 2024-01-01T00:00:00Z --all
  tradeloop api CreateOrder --profile_id default --body '{"side":"BUY","market":"BTCUSD","type":"MARKET","quote_amount":"25"}'

Parameters use the wire names verbatim; repeat a flag for array parameters. The JSON result goes to
stdout, logs to stderr. On an API error the problem JSON goes to stderr and the exit code is 1 (a
failed token request prints an error line naming it first); bad flags or configuration exit with 2.`;

/**
 * `tradeloop api <operationId>`: calls any platform operation through the typed client, driven by
 * the operations table — handy for users and for debugging a strategy's view of the platform.
 */
export function registerApi(program: Command, ctx: CliContext): void {
  program
    .command('api')
    .description('call any platform operation by its operationId and print the JSON response')
    .argument('[operationId]', 'operation to call, e.g. GetOrderBook (see --list)')
    .argument('[params...]', 'parameters as --name value, wire names verbatim')
    .option('--body <json>', 'JSON body, or @file to read it from a file')
    .option('--all', 'follow every page and print all items as one array')
    .option('--list', 'list the operations with method, path and scope')
    .option('-c, --config <file>', 'YAML config file (default: ./config/default.yaml, else the built-in defaults)')
    .option('--base-url <url>', 'API base URL ending in /v2 (overrides the config)')
    .option('--token-url <url>', 'OAuth2 token URL (overrides the config)')
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .addHelpText('after', EXAMPLES)
    .action(async (operationId: string | undefined, params: string[], flags: ApiFlags) =>
      (await import('./api-action.js')).apiAction(operationId, params, flags, ctx),
    );
}
