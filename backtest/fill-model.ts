/**
 * Which fill model a backtest uses, and the rule the book model states. Apart from the book model's
 * replay (`recorded-market.ts` and `book-run.ts`, which loads the recording's readers and the API's decoder): a
 * backtest of a price file asks and loads nothing of it.
 */
import { InputError, type MarketSymbol } from '../src/core/index.js';

/** The rule the report and manifest state for the book model (docs/backtest.md says it in full). */
export const BOOK_FILL_RULE =
  'Orders reach the venue the latency after the decision and meet the recorded book in force then: a market order walks the levels ' +
  '(one fill per level at its price; what the book cannot fill is cancelled), a limit order takes the levels that cross it and rests the rest ' +
  "(a post-only one that would take is rejected); a resting limit fills at its own price when a later recorded book's opposite side crosses it, " +
  "up to the amount there, and when a recorded trade goes at or through its price, up to the trade's amount; our fills take liquidity until " +
  "the next recorded book. A stop sell fires when a recorded book's mid reaches its stop price, then walks the bids (STOP_MARKET) or becomes " +
  'a limit sell (STOP_LIMIT); GTT orders expire; held-rate quotes execute at their recorded price until they expire; transfers settle at once.';

/**
 * The book rule as it applied to one recording: whether resting limits could fill on recorded trades
 * (`trades`), the run polled trades but none happened (`none-happened`), or it did not poll them.
 */
export function bookFillRule(trades: 'trades' | 'none-happened' | 'not-recorded'): string {
  if (trades === 'trades') return BOOK_FILL_RULE;
  const why =
    trades === 'none-happened'
      ? 'the recorded trades stream saw no trade of the market'
      : 'this recording holds no trades (record with streams.trades_ms)';
  return `${BOOK_FILL_RULE} Here ${why}, so resting limits filled only when the opposite side crossed them.`;
}

export type FillModel = 'book' | 'points';

export interface FillModelFlags {
  readonly data?: string;
  readonly fillModel?: string;
  readonly latencyMs?: string;
  readonly slippageBps?: string;
  readonly robustness?: string;
  readonly market?: string;
  readonly from?: string;
  readonly to?: string;
  readonly priceColumn?: string;
}

/**
 * Which fill model a backtest uses: `--fill-model` when given, else book for a recording that holds
 * books of the market, points otherwise; flags that do not apply to the model are refused, naming it.
 */
export async function resolveFillModel(
  flags: FillModelFlags,
  isRecording: boolean,
  market: MarketSymbol | undefined,
): Promise<{ model: FillModel; latencyMs?: number }> {
  const asked = flags.fillModel;
  if (asked !== undefined && asked !== 'book' && asked !== 'points')
    throw new InputError(
      '--fill-model',
      `${JSON.stringify(asked)} is not a fill model: use book (fill against a recording's order books) or points`,
    );
  if (asked === 'book' && !isRecording)
    throw new InputError(
      '--fill-model',
      'book fills against the order books of a stream recording: give --data RECORDING (a file a run wrote with streams.record), or use --fill-model points',
    );
  const model: FillModel =
    asked ??
    (isRecording &&
    market !== undefined &&
    flags.data !== undefined &&
    (await (await import('./recorded-market.js')).recordingHasBooks(flags.data, market))
      ? 'book'
      : 'points');
  if (model === 'points') {
    if (flags.latencyMs !== undefined)
      throw new InputError(
        '--latency-ms',
        'applies to --fill-model book (the point model acts one point later); add --fill-model book with a recording, or drop the flag',
      );
    return { model };
  }
  if (flags.market !== undefined)
    throw new InputError('--data', 'give either --data FILE or --market MARKET (with cached prices), not both or neither');
  if (flags.from !== undefined || flags.to !== undefined)
    throw new InputError('--from', '--from and --to select cached prices with --market; trim the --data file instead');
  if (flags.priceColumn !== undefined)
    throw new InputError(
      '--price-column',
      `${flags.data!} is a stream recording: the book model replays its recorded events; --price-column picks a column of a CSV file`,
    );
  if (flags.slippageBps !== undefined)
    throw new InputError(
      '--slippage-bps',
      'the book model fills at the recorded levels, so the book is the slippage; drop the flag, or use --fill-model points',
    );
  if (flags.robustness !== undefined)
    throw new InputError('--robustness', 'is computed on the point model for now; add --fill-model points to this run');
  const raw = flags.latencyMs ?? '0';
  if (!/^\d{1,9}$/.test(raw))
    throw new InputError('--latency-ms', `expected whole milliseconds from 0, e.g. 250, got ${JSON.stringify(raw)}`);
  return { model, latencyMs: Number(raw) };
}
