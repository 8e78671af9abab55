/**
 * Issue 6: one JSON.parse per response, shared by all strategies. The live market-data path runs
 * in one process on a TestClock — the typed client over loopback HTTP, the polling market source,
 * the market store and the engine with three strategies on the same market — while a spy on
 * JSON.parse (calling through) counts parses over a fixed number of poll cycles.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../../src/clock/index.js';
import type { MarketEvent } from '../../src/core/index.js';
import { Kernel, type Engine } from '../../src/engine/index.js';
import { runnersFor, subscriptionsFor, type LoadedStrategy } from '../../src/live/index.js';
import { Journal } from '../../src/exec/index.js';
import { RiskLimitsSchema } from '../../src/risk/index.js';
import type { MarketStore } from '../../src/state/index.js';
import { defineStrategy } from '../../src/strategy/index.js';
import { PollingMarketSource, RestVenue } from '../../src/venue/index.js';
import { startMarketDataPlatform, type MarketDataPlatform } from '../support/market-data-platform.js';
import { loggedClient, quiet, settle, stepClock, type LoggedClient } from '../support/streams-harness.js';

const T0 = Date.UTC(2025, 4, 1, 12);
const INTERVAL_MS = 1_000;
const CYCLES = 12;
const STREAMS = 3; // ListPrices, GetTicker, GetOrderBook for BTCUSD

/** A strategy that reads every event and records it (no intents). */
function recorder(name: string, seen: MarketEvent[], onEach?: (e: MarketEvent) => void): LoadedStrategy {
  const definition = defineStrategy({
    name,
    description: 'records every market event it is given',
    params: z.object({}),
    markets: ['BTCUSD'],
    needs: ['price', 'ticker', 'book'],
    create: () => ({
      onEvent: (e) => {
        onEach?.(e);
        seen.push(e);
        return undefined;
      },
    }),
  });
  return { name, definition, params: {}, markets: ['BTCUSD'] };
}

interface Rig {
  readonly clock: TestClock;
  readonly platform: MarketDataPlatform;
  readonly client: LoggedClient;
  readonly source: PollingMarketSource;
  readonly market: MarketStore;
  readonly engine: Engine;
  readonly journal: Journal;
}

let rig: Rig | undefined;

/** The live wiring (as LiveRun does it): source events → engine → market store → strategies. */
async function startRig(strategies: readonly LoadedStrategy[]): Promise<Rig> {
  const clock = new TestClock(T0);
  const platform = await startMarketDataPlatform(clock);
  const client = loggedClient(clock, { apiUrl: platform.apiUrl, tokenUrl: platform.tokenUrl });
  const journal = new Journal(':memory:');
  const kernel = new Kernel(
    { clock, venue: new RestVenue(client.api, 'p'), journal },
    { limits: RiskLimitsSchema.parse({}), refPrefix: 'one-parse', fillsSinceMs: 0, strategies: runnersFor(strategies) },
  );
  const { market, engine } = kernel;
  const source = new PollingMarketSource({
    api: client.api,
    clock,
    intervals: { pricesMs: INTERVAL_MS, tickerMs: INTERVAL_MS, bookMs: INTERVAL_MS },
  });
  kernel.attach(source);
  rig = { clock, platform, client, source, market, engine, journal };
  // the live bundle reads the granted scopes first: the token request is answered before the window
  expect(await client.api.grantedScopes()).toBeDefined();
  source.start(subscriptionsFor(strategies));
  await settle(quiet(source, client));
  return rig;
}

/**
 * Spies on JSON.parse (calling through) over `CYCLES` poll cycles. Nothing is in flight at either
 * end of the window, so every reply the server wrote inside it was read inside it.
 */
async function measure(r: Rig): Promise<{ parsed: string[]; sent: string[]; from: number }> {
  const from = r.platform.sent.length;
  const spy = vi.spyOn(JSON, 'parse');
  let parsed: string[];
  try {
    await stepClock(r.clock, CYCLES * INTERVAL_MS, 100, quiet(r.source, r.client));
  } finally {
    // read the calls before restoring: mockRestore clears them
    parsed = spy.mock.calls.map((c) => String(c[0]));
    spy.mockRestore();
  }
  return { parsed, sent: r.platform.sent.slice(from).map((s) => s.body), from };
}

afterEach(async () => {
  if (!rig) return;
  await rig.source.stop();
  await rig.client.api.close();
  await rig.platform.close();
  rig.journal.close();
  rig = undefined;
});

describe('one JSON.parse per response, shared by all strategies (issue 6)', () => {
  it('three strategies on one market: JSON.parse calls equal JSON responses, and each strategy sees every price event', async () => {
    const seen: MarketEvent[][] = [[], [], []];
    const r = await startRig(seen.map((s, i) => recorder(`reader-${i + 1}`, s)));
    const before = seen.map((s) => s.length);
    const pricesBefore = r.platform.pricesSent.length;

    const { parsed, sent } = await measure(r);

    expect(r.source.streams().sort()).toEqual(['book:BTCUSD', 'prices', 'ticker:BTCUSD']);
    expect(sent).toHaveLength(CYCLES * STREAMS);
    expect(r.platform.sent.every((s) => s.status === 200)).toBe(true);
    // one parse per response, not one per strategy (3×) nor per event
    expect(parsed).toHaveLength(sent.length);
    // and each parse is of one reply as it came off the wire, each reply parsed once
    expect([...parsed].sort()).toEqual([...sent].sort());

    const prices = r.platform.pricesSent.slice(pricesBefore).map((p) => p + 0.25);
    expect(prices).toHaveLength(CYCLES);
    const windows = seen.map((s, i) => s.slice(before[i]));
    for (const w of windows) {
      expect(w.filter((e) => e.kind === 'price').map((e) => (e.kind === 'price' ? e.price : NaN))).toEqual(prices);
      expect(w.filter((e) => e.kind === 'ticker')).toHaveLength(CYCLES);
      expect(w.filter((e) => e.kind === 'book')).toHaveLength(CYCLES);
    }
    // the strategies were handed the very same event objects: decoded once, shared
    for (const [i, e] of windows[0]!.entries()) {
      expect(windows[1]![i]).toBe(e);
      expect(windows[2]![i]).toBe(e);
    }
    expect(r.engine.counters.events).toBe(seen[0]!.length);
    expect(r.market.snapshot('BTCUSD').price?.value).toBe(prices[prices.length - 1]);
  });

  it('the count catches a re-parse: a subscriber that parses its event again adds one call per event', async () => {
    const seen: MarketEvent[][] = [[], [], []];
    const reparse = (e: MarketEvent): void => void JSON.parse(JSON.stringify(e));
    const r = await startRig(seen.map((s, i) => recorder(`reader-${i + 1}`, s, i === 2 ? reparse : undefined)));
    const before = seen[2]!.length;

    const { parsed, sent } = await measure(r);

    expect(sent).toHaveLength(CYCLES * STREAMS);
    expect(parsed).toHaveLength(sent.length + (seen[2]!.length - before));
    expect(parsed.length).toBeGreaterThan(sent.length);
  });
});
