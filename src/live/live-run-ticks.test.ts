import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import type { Decision } from '../core/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { createLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { balanceFromWire } from '../state/index.js';
import { defineStrategy, type IntentDraft } from '../strategy/index.js';
import { SimVenue } from '../venue/index.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { simMetadata } from '../../test/support/sim-metadata.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from '../engine/strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

async function setup(o: { failReads?: boolean } = {}) {
  const journal = new Journal(':memory:');
  journals.push(journal);
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '100000' } });
  const venue = new SimVenue(sim);
  const source = new ScriptedSource();
  /** Limit buys the strategy places on the next price event: [market, price]. */
  const next: Array<[string, string]> = [];
  const bidding = defineStrategy({
    name: 'bid',
    description: 'places the scripted limit buys on a price event',
    params: z.object({}),
    markets: ['BTCUSD', 'MATICUSD'],
    create: () => ({
      onEvent: (e) =>
        e.kind === 'price'
          ? next.splice(0).map(([market, price]): IntentDraft => ({
              kind: 'place-order',
              market,
              side: 'BUY',
              type: 'LIMIT',
              baseAmount: market === 'BTCUSD' ? '0.01' : '100',
              price,
              timeInForce: 'GTC',
            }))
          : undefined,
    }),
  });
  const metadata = simMetadata(sim);
  metadata.fail = o.failReads ?? false;
  const lines: string[] = [];
  const log = createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } });
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config: parseConfig({ risk: { max_order_notional: '1000000', price_band_bps: 5000 } }),
    environment: 'test',
    refPrefix: 'tk',
    log,
    metadata,
    transferLimitsRefreshMs: 60_000,
    strategies: (ids) => [new StrategyRunner('bid', bidding, {}, ['BTCUSD', 'MATICUSD'], ids)],
  });
  const bid = async (market: string, price: string): Promise<Decision | undefined> => {
    const balances = await venue.balances();
    source.account.next({
      kind: 'balances',
      at: clock.now(),
      items: balances.map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed())),
    });
    for (const m of ['BTCUSD', 'MATICUSD']) source.events.next({ kind: 'price', market: m, at: clock.now(), price: sim.mid(m) });
    next.push([market, price]);
    const before = run.engine.counters.intents;
    source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
    await run.engine.drain();
    const d = run.engine.counters.intents > before ? run.view().decisions.at(-1) : undefined;
    return d;
  };
  const warnings = (): string[] =>
    lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 40)
      .map((l) => l.msg);
  return { clock, sim, run, metadata, bid, warnings };
}

/** A price `fraction` below mid, written with `dp` decimals. */
const below = (mid: number, fraction: number, dp: number): string => (mid * (1 - fraction)).toFixed(dp);

describe('LiveRun market ticks (ListMarkets → risk gate precision check)', () => {
  it("reads every market's tick at start and denies a limit price off it with PRECISION", async () => {
    const s = await setup();
    await s.run.start([]);
    expect(s.metadata.reads.markets).toBe(1);
    const btc = s.sim.mid('BTCUSD');
    const off = `${below(btc, 0.05, 2)}5`; // a third decimal on a 0.01 tick
    expect(await s.bid('BTCUSD', off)).toMatchObject({
      kind: 'deny',
      reason: { code: 'PRECISION', details: { field: 'price', tick: '0.01' } },
    });
    expect(s.sim.orders()).toHaveLength(0); // the venue never saw it
    expect(await s.bid('BTCUSD', below(btc, 0.05, 2))).toMatchObject({ kind: 'approve' });
    // MATIC trades under 5 USD: its tick is 0.0001
    const matic = s.sim.mid('MATICUSD');
    expect(await s.bid('MATICUSD', `${below(matic, 0.05, 4)}5`)).toMatchObject({
      kind: 'deny',
      reason: { code: 'PRECISION', details: { tick: '0.0001' } },
    });
    expect(await s.bid('MATICUSD', below(matic, 0.05, 4))).toMatchObject({ kind: 'approve' });
    await s.run.engine.drain();
    expect(s.sim.orders()).toHaveLength(2);
    expect(s.metadata.reads.markets).toBe(1); // ticks are read once
    await s.run.stop('test over');
  });

  it('starts when the markets cannot be read, says so, and reads them again on the refresh period', async () => {
    const s = await setup({ failReads: true });
    await s.run.start([]);
    expect(s.warnings()).toContainEqual(
      expect.stringMatching(
        /markets could not be read \(503 Service Unavailable\): the platform catalog.s ticks and decimals are checked until they are; retrying every 60 s/,
      ),
    );
    await s.clock.advanceAsync(120_000, 1_000);
    expect(s.metadata.reads.markets).toBe(3);
    expect(s.warnings().filter((w) => w.startsWith('markets could not be read'))).toHaveLength(1); // once per outage
    const btc = s.sim.mid('BTCUSD');
    // not read yet: the platform catalog's tick is checked meanwhile, so nothing off-tick reaches the venue
    expect(await s.bid('BTCUSD', `${below(btc, 0.05, 2)}5`)).toMatchObject({ kind: 'deny', reason: { code: 'PRECISION' } });
    expect(await s.bid('BTCUSD', below(btc, 0.05, 2))).toMatchObject({ kind: 'approve' });
    s.metadata.fail = false;
    await s.clock.advanceAsync(60_000, 1_000);
    expect(s.metadata.reads.markets).toBe(4);
    expect(await s.bid('BTCUSD', `${below(btc, 0.06, 2)}5`)).toMatchObject({ kind: 'deny', reason: { code: 'PRECISION' } });
    await s.clock.advanceAsync(120_000, 1_000);
    expect(s.metadata.reads.markets).toBe(4); // loaded: not read again
    await s.run.stop('test over');
  });
});
