import { TestClock } from '../../src/clock/index.js';
import { parseConfig, type Config } from '../../src/config/index.js';
import { LiveRun, runnersFor, subscriptionsFor, type LoadedStrategy } from '../../src/live/index.js';
import { Journal } from '../../src/exec/index.js';
import { silentLogger } from '../../src/log/index.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { loadStrategy, marketsOf, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { PollingMarketSource, RestVenue } from '../../src/venue/index.js';
import { loggedClient, stepClock, type LoggedClient } from './streams-harness.js';

export interface LiveHarness {
  readonly clock: TestClock;
  readonly sandbox: SandboxHandle;
  readonly client: LoggedClient;
  readonly run: LiveRun;
  readonly journal: Journal;
  readonly source: PollingMarketSource;
  /** Moves simulated time in steps, letting every request of each step answer first. */
  step(totalMs: number, stepMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole live pipeline in one process on a test clock: the local sandbox over HTTP, the typed
 * client, the polling streams, RestVenue, the journal and a LiveRun of one built-in strategy.
 */
export async function startLiveHarness(
  plugin: string | StrategyDefinition,
  params: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
  funding: Record<string, string> = { USD: '100000' },
  sandboxOptions: Partial<SandboxOptions> = {},
  /** More strategies (default params) run beside it on the same account. */
  alongside: readonly StrategyDefinition[] = [],
  /** The run's journal (default: one in memory); the harness closes it. */
  journal: Journal = new Journal(':memory:'),
): Promise<LiveHarness> {
  const clock = new TestClock(Date.UTC(2025, 4, 1, 12));
  const sandbox = await startSandbox({ clock, seed: 5, funding, ...sandboxOptions });
  const client = loggedClient(clock, {
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    maxRetries: 4,
    baseBackoffMs: 200,
    maxBackoffMs: 2_000,
  });
  const definition = typeof plugin === 'string' ? await loadStrategy(plugin) : plugin;
  const loadedOf = (d: StrategyDefinition, p: Record<string, unknown>): LoadedStrategy => {
    const r = resolveParams(d, p) as Record<string, unknown>;
    return { name: d.name, definition: d, params: r, markets: marketsOf(d, r as never) };
  };
  const all = [loadedOf(definition, params), ...alongside.map((d) => loadedOf(d, {}))];
  const config: Config = parseConfig({
    streams: {
      prices_ms: 5_000,
      ticker_ms: 5_000,
      book_ms: 5_000,
      quotes_ms: 5_000,
      balances_ms: 5_000,
      orders_ms: 5_000,
      warmup_points: 30,
    },
    risk: { stale_after_ms: 30_000, max_intents_per_minute: 600, max_order_notional: '100000' },
    ...overrides,
  });
  const profileId = sandbox.sim.profiles.defaultId;
  const s = config.streams;
  const source = new PollingMarketSource({
    api: client.api,
    clock,
    profileId,
    intervals: {
      pricesMs: s.prices_ms,
      tickerMs: s.ticker_ms,
      bookMs: s.book_ms,
      quotesMs: s.quotes_ms,
      balancesMs: s.balances_ms,
      ordersMs: s.orders_ms,
      fillsMs: s.orders_ms,
      quoteExecutionsMs: s.orders_ms,
    },
  });
  const run = new LiveRun({
    clock,
    venue: new RestVenue(client.api, profileId),
    source,
    journal,
    config,
    environment: 'test',
    refPrefix: 'e2e',
    log: silentLogger(),
    strategies: runnersFor(all),
  });
  await run.start(subscriptionsFor(all));
  return {
    clock,
    sandbox,
    client,
    run,
    journal,
    source,
    step: (total, step) => stepClock(clock, total, step, () => client.outstanding() === 0),
    close: async () => {
      // shutdown cancels open orders through rate limits and backoffs that wait on the test clock
      let stopped = false;
      const stopping = run.stop('test over').finally(() => (stopped = true));
      for (let i = 0; i < 600 && !stopped; i++) await stepClock(clock, 1_000, 1_000, () => client.outstanding() === 0);
      await stopping;
      await client.api.close();
      await sandbox.close();
      journal.close();
    },
  };
}
