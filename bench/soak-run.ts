/**
 * The soak run itself (see bench/soak.ts): built-in strategies through the whole live pipeline
 * against the in-process local sandbox on one accelerated clock (ScaledClock), with the sandbox's
 * rate limits on (windows on the same simulated clock as the client's pacing) and light faults.
 * Samples heap and RSS after a forced GC, event-loop delay, requests per endpoint and 429s.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApiClient } from '../src/api/index.js';
import { LiveClock, ScaledClock } from '../src/clock/index.js';
import { LOCAL_CLIENT_ID, LOCAL_CLIENT_SECRET, parseConfig } from '../src/config/index.js';
import { LiveRun, runnersFor, subscriptionsFor, type LoadedStrategy } from '../src/live/index.js';
import { Journal } from '../src/exec/index.js';
import { silentLogger } from '../src/log/index.js';
import { parseFaults, startSandbox } from '../src/sandbox/index.js';
import { loadStrategy, marketsOf, resolveParams } from '../src/strategy/index.js';
import { PollingMarketSource, RequestBudget, RestVenue } from '../src/venue/index.js';

export interface SoakOptions {
  readonly hours: number;
  readonly speed: number;
  readonly faults: string;
  /** Simulated minutes between samples. */
  readonly sampleMinutes: number;
  readonly onSample?: (s: SoakSample) => void;
}

export interface SoakSample {
  readonly simHours: number;
  readonly wallSeconds: number;
  readonly heapMb: number;
  readonly rssMb: number;
  readonly loopP99Ms: number;
  readonly requests: number;
}

export interface SoakResult {
  readonly samples: SoakSample[];
  readonly requestsByOperation: Record<string, number>;
  readonly status429: number;
  readonly injected429: number;
  readonly faultsInjected: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  readonly intents: number;
  readonly ordersPlaced: number;
  readonly fills: number;
  readonly unresolved: number;
}

const STRATEGIES: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['sma-cross', { fast: 5, slow: 20, size_pct: 10 }],
  ['rsi-reversion', { market: 'ETHUSD', size_pct: 10 }],
  ['grid-maker', {}],
  ['quote-dca', {}],
];

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const wall = new LiveClock();
  const clock = new ScaledClock(Date.UTC(2025, 7, 1), o.speed);
  const sandbox = await startSandbox({
    clock,
    wallClock: clock,
    seed: 21,
    funding: { USD: '1000000' },
    rateLimits: {},
    faults: parseFaults(o.faults),
  });
  const byOp: Record<string, number> = {};
  let status429 = 0;
  const budget = new RequestBudget({ clock });
  const api = createApiClient({
    apiUrl: sandbox.apiUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: LOCAL_CLIENT_ID,
    clientSecret: LOCAL_CLIENT_SECRET,
    localCredential: true,
    clock,
    onRequest: (e) => budget.observe(e),
    onResponse: (e) => {
      byOp[e.operation] = (byOp[e.operation] ?? 0) + 1;
      if (e.status === 429) status429++;
    },
  });
  const loaded: LoadedStrategy[] = [];
  for (const [name, raw] of STRATEGIES) {
    const definition = await loadStrategy(name);
    const params = resolveParams(definition, raw) as Record<string, unknown>;
    loaded.push({ name: definition.name, definition, params, markets: marketsOf(definition, params as never) });
  }
  const config = parseConfig({ streams: { warmup_points: 30 }, risk: { max_order_notional: '50000', max_intents_per_minute: 120 } });
  const s = config.streams;
  const profileId = sandbox.sim.profiles.defaultId;
  const source = new PollingMarketSource({
    api,
    clock,
    profileId,
    budget,
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
  const journal = new Journal(join(mkdtempSync(join(tmpdir(), 'tradeloop-soak-')), 'journal.sqlite'));
  const run = new LiveRun({
    clock,
    venue: new RestVenue(api, profileId),
    source,
    journal,
    config,
    environment: 'soak',
    refPrefix: 'soak',
    log: silentLogger(),
    strategies: runnersFor(loaded),
  });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const whole = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  whole.enable();
  const started = wall.now();
  const t0 = clock.now();
  await run.start(subscriptionsFor(loaded));
  const samples: SoakSample[] = [];
  const endAt = t0 + o.hours * 3_600_000;
  for (let next = t0; next <= endAt; next += o.sampleMinutes * 60_000) {
    await clock.sleep(Math.max(0, next - clock.now()));
    gc();
    const m = process.memoryUsage();
    const sample = {
      simHours: (clock.now() - t0) / 3_600_000,
      wallSeconds: (wall.now() - started) / 1000,
      heapMb: m.heapUsed / 2 ** 20,
      rssMb: m.rss / 2 ** 20,
      loopP99Ms: loop.percentile(99) / 1e6,
      requests: Object.values(byOp).reduce((a, b) => a + b, 0),
    };
    loop.reset();
    samples.push(sample);
    o.onSample?.(sample);
  }
  const summary = await run.stop('soak over');
  whole.disable();
  loop.disable();
  await api.close();
  const injected429 = sandbox.faults.log.count('error429');
  const faultsInjected = sandbox.faults.log.total;
  await sandbox.close();
  journal.close();
  return {
    samples,
    requestsByOperation: byOp,
    status429,
    injected429,
    faultsInjected,
    loopP99Ms: whole.percentile(99) / 1e6,
    loopMaxMs: whole.max / 1e6,
    intents: summary.intents,
    ordersPlaced: summary.ordersPlaced,
    fills: summary.fills,
    unresolved: summary.unresolved,
  };
}
