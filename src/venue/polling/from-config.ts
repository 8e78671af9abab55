import type { Config } from '../../config/index.js';
import type { SecretSet } from '../../log/index.js';
import { JsonLinesRecorder } from './recorder.js';
import { DEFAULT_INTERVALS, type PollIntervals } from './stream-requests.js';
import type { PlanOptions } from './stream-plan.js';

/** What the `streams` config section sets on a PollingMarketSource and on the stores. */
export interface StreamSettings {
  readonly intervals: PollIntervals;
  readonly staleAfterMs: number;
  readonly historyCapacity: number;
  readonly warmUpPoints: number;
  readonly recordPath: string | undefined;
  /** The streams the config turns on (`ticker_ms`, `book_ms` set): polled for every market of the run. */
  readonly alwaysPoll: Pick<PlanOptions, 'tickers' | 'books'>;
}

/**
 * Reads the validated `streams` section: each poll interval (`fills_ms` and `quote_executions_ms`
 * are `orders_ms` unless set: the schema fills them in), the stale age and history capacity for the
 * MarketStore, the warm-up depth and the recording file.
 */
export function streamSettingsFromConfig(streams: Config['streams']): StreamSettings {
  return {
    intervals: {
      pricesMs: streams.prices_ms,
      tickerMs: streams.ticker_ms ?? DEFAULT_INTERVALS.tickerMs,
      bookMs: streams.book_ms ?? DEFAULT_INTERVALS.bookMs,
      quotesMs: streams.quotes_ms,
      balancesMs: streams.balances_ms,
      ordersMs: streams.orders_ms,
      fillsMs: streams.fills_ms,
      quoteExecutionsMs: streams.quote_executions_ms,
      ...(streams.trades_ms !== undefined && { tradesMs: streams.trades_ms }),
    },
    staleAfterMs: streams.stale_after_ms,
    historyCapacity: streams.history_capacity,
    warmUpPoints: streams.warmup_points,
    recordPath: streams.record,
    alwaysPoll: { tickers: streams.ticker_ms !== undefined, books: streams.book_ms !== undefined },
  };
}

/** The recorder `streams.record` asks for, masking the run's secrets; undefined when not recording. */
export function recorderFromSettings(settings: Pick<StreamSettings, 'recordPath'>, secrets?: SecretSet): JsonLinesRecorder | undefined {
  return settings.recordPath === undefined ? undefined : new JsonLinesRecorder(settings.recordPath, secrets ? { secrets } : {});
}
