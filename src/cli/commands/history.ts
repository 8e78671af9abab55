import { type Command } from 'commander';
import type { Increment } from '../../core/markets.js';
import type { CliContext } from '../context.js';

export interface FetchFlags {
  readonly market: string;
  readonly increment: string;
  readonly from: string;
  readonly to: string;
  readonly dataDir: string;
  readonly config?: string;
  readonly baseUrl?: string;
  readonly tokenUrl?: string;
  readonly restart?: boolean;
}

/**
 * `tradeloop history fetch`: every page of List Historical Prices for a market, increment and range,
 * from the local sandbox or the real one, into the price cache `tradeloop backtest --market` reads.
 * Resumable: each page is appended and counted, so a second run continues where the first stopped.
 * In the `local` environment without a URL (--base-url, api.base_url) it starts the embedded sandbox
 * itself, with history reaching back to --from. A range the venue has no prices for is an error
 * (exit 2), and leaves any earlier cache of that market and increment as it was. Its code
 * (history-action.ts) loads when it runs, not for `--help`.
 */
export function registerHistory(program: Command, ctx: CliContext): void {
  const history = program.command('history').description('historical prices for backtests: fetch and cache List Historical Prices');
  history
    .command('fetch')
    .description('fetch every page of historical prices for a market into the local cache (resumable)')
    .requiredOption('--market <market>', 'market, e.g. BTCUSD')
    .requiredOption('--from <time>', 'range start, e.g. 2024-01-01 or 2024-01-01T00:00:00Z')
    .requiredOption('--to <time>', 'range end')
    .option('--increment <name>', 'ONE_MINUTE … FOUR_WEEKS', 'ONE_HOUR')
    .option('--data-dir <dir>', 'cache folder', 'data/history')
    .option(
      '-c, --config <file>',
      'YAML config: environment and API settings (default: ./config/default.yaml, else the built-in defaults: the embedded local sandbox)',
    )
    .option('--base-url <url>', 'API base URL ending in /v2 (e.g. a sandbox you run); in local without it the embedded sandbox is started')
    .option('--token-url <url>', 'OAuth2 token URL (overrides the config)')
    .option('--restart', 'discard a partial fetch of the same range and start over')
    .action(async (flags: FetchFlags) => (await import('./history-action.js')).fetchAction(flags, ctx));
}

/** What one fetch asks for. */
export interface HistoryWant {
  readonly market: string;
  readonly increment: Increment;
  readonly fromMs: number;
  readonly toMs: number;
}

/** Where a fetch goes and which venue serves it (the flags of `history fetch`, or a backtest's). */
export type HistoryVenueFlags = Pick<FetchFlags, 'dataDir' | 'config' | 'baseUrl' | 'tokenUrl'>;
