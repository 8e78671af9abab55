import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock, flushMicrotasks } from '../clock/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { silentLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { balanceFromWire } from '../state/index.js';
import { defineStrategy } from '../strategy/index.js';
import { SimVenue } from '../venue/index.js';
import { buyOnce } from '../../test/support/live-run-rig.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from '../engine/strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

async function setup(journal = new Journal(':memory:')) {
  journals.push(journal);
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '1000' } });
  const venue = new SimVenue(sim);
  const source = new ScriptedSource([{ kind: 'price', market: 'BTCUSD', at: clock.now() - 60_000, price: sim.mid('BTCUSD') }]);
  const config = parseConfig({ risk: { price_band_bps: 2000 } });
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config,
    environment: 'test',
    refPrefix: 'lr',
    log: silentLogger(),
    strategies: (ids) => [new StrategyRunner('buy-once', buyOnce, {}, ['BTCUSD'], ids)],
  });
  return { clock, sim, venue, source, run, journal };
}

async function pushState(s: Awaited<ReturnType<typeof setup>>): Promise<void> {
  const balances = await s.venue.balances();
  s.source.account.next({
    kind: 'balances',
    at: s.clock.now(),
    items: balances.map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed())),
  });
  s.source.events.next({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: s.sim.mid('BTCUSD') });
}

const throwsLive = defineStrategy({
  name: 'throws-live',
  description: 'throws on its first live price',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => ({
    onEvent: (e, ctx) => {
      if (!ctx.warmingUp && e.kind === 'price') throw new Error('boom in the plugin');
    },
  }),
});

describe('LiveRun', () => {
  it('says every strategy has stopped (allStopped) once the last one throws, so the run can end with a failure', async () => {
    const s = await setup();
    const run = new LiveRun({
      clock: s.clock,
      venue: s.venue,
      source: s.source,
      journal: s.journal,
      config: parseConfig({}),
      environment: 'test',
      refPrefix: 'as',
      log: silentLogger(),
      strategies: (ids) => [new StrategyRunner('throws-live', throwsLive, {}, ['BTCUSD'], ids)],
    });
    await run.start([]);
    let why: string | undefined;
    void run.allStopped.then((w) => (why = w));
    await s.clock.advanceAsync(2_000, 500);
    expect(why).toBeUndefined(); // warm-up did not throw
    await pushState(s);
    await s.clock.advanceAsync(2_000, 500);
    expect(why).toMatch(/every strategy has stopped: throws-live: onEvent threw: boom in the plugin/);
    const summary = await run.stop(why!);
    expect(summary.stoppedStrategies).toEqual([expect.stringMatching(/boom in the plugin/)]);
  });

  it('warms up without trading, then trades live through risk, journal and venue, and summarises', async () => {
    const s = await setup();
    const rec = await s.run.start([{ market: 'BTCUSD', kinds: new Set(['price']) }]);
    expect(rec.agreed).toBe(true);
    expect(s.sim.orders()).toHaveLength(0); // the warm-up price made an intent that was not sent
    await pushState(s);
    await s.run.engine.drain();
    await s.clock.advanceAsync(2_000, 500);
    expect(s.sim.orders()).toHaveLength(1);
    expect(s.sim.orders()[0]?.refId).toBe('lr-1'); // nothing made on warm-up took an id
    expect(s.journal.fills().length).toBeGreaterThan(0);
    const summary = await s.run.stop('test over');
    expect(summary).toMatchObject({ intents: 1, approved: 1, ordersPlaced: 1, unresolved: 0 });
    expect(summary.fills).toBeGreaterThan(0);
    expect(s.source.stopped).toBe(true);
  });

  it('continues intent ids after a restart and reconciles before trading', async () => {
    const file = `${(await import('node:os')).tmpdir()}/tradeloop-liverun-${process.pid}-${Math.floor(Date.UTC(2025, 0, 1) / 1000)}.sqlite`;
    const { rmSync } = await import('node:fs');
    rmSync(file, { force: true });
    const first = await setup(new Journal(file));
    await first.run.start([]);
    await pushState(first);
    await first.run.engine.drain();
    await first.run.stop('restart');
    first.journal.close();
    const second = await setup(new Journal(file));
    await second.run.start([]);
    await flushMicrotasks();
    expect(second.journal.intents().map((r) => r.refId)).toEqual(['lr-1']);
    await pushState(second);
    await second.run.engine.drain();
    const ids = second.journal
      .intents()
      .map((r) => r.refId)
      .sort();
    expect(ids).toEqual(['lr-1', 'lr-2']);
    await second.run.stop('done');
    rmSync(file, { force: true });
  });

  it('reads balances before the first live price, so its first intent is not denied for want of them', async () => {
    const s = await setup();
    await s.run.start([]);
    s.source.events.next({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: s.sim.mid('BTCUSD') }); // no balances streamed yet
    await s.run.engine.drain();
    expect(s.run.view().decisions.map((d) => d.kind)).toEqual(['approve']);
    expect(s.sim.orders()).toHaveLength(1);
  });

  it('shows prices, balances, equity and decisions in its view', async () => {
    const s = await setup();
    await s.run.start([]);
    await pushState(s);
    await s.run.engine.drain();
    await s.clock.advanceAsync(6_000, 1_000);
    const view = s.run.view();
    expect(view.markets[0]?.mid).toBeGreaterThan(0);
    expect(view.balances.find((b) => b.asset === 'USD')).toBeDefined();
    expect(view.decisions).toHaveLength(1);
    expect(view.equity).toBeDefined();
  });
});
