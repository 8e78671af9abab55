import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { silentLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { balanceFromWire } from '../state/index.js';
import { SimVenue } from '../venue/index.js';
import { buyOnce } from '../../test/support/live-run-rig.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from '../engine/strategy-runner.js';

const journals: Journal[] = [];
const files: string[] = [];
afterEach(() => {
  journals.splice(0).forEach((j) => j.close());
  files.splice(0).forEach((f) => rmSync(f, { force: true }));
});

/** One run on a simulated venue funded with USD 1000; `sim` carries the venue's state across a restart. */
function setup(journal: Journal, clock: TestClock, sim: SimPlatform) {
  journals.push(journal);
  const venue = new SimVenue(sim);
  const source = new ScriptedSource([{ kind: 'price', market: 'BTCUSD', at: clock.now() - 60_000, price: sim.mid('BTCUSD') }]);
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config: parseConfig({ risk: { price_band_bps: 2000 } }),
    environment: 'test',
    refPrefix: 'se',
    log: silentLogger(),
    strategies: (ids) => [new StrategyRunner('buy-once', buyOnce, {}, ['BTCUSD'], ids)],
  });
  const trade = async (): Promise<void> => {
    const balances = await venue.balances();
    source.account.next({
      kind: 'balances',
      at: clock.now(),
      items: balances.map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed())),
    });
    source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
    await run.engine.drain();
    await clock.advanceAsync(2_000, 500);
  };
  return { run, trade };
}

describe('LiveRun start equity and positions', () => {
  it('measures the start equity before the first trade, keeps it in the journal, and a restart reports the same start', async () => {
    const file = join(tmpdir(), `tradeloop-start-equity-${process.pid}.sqlite`);
    files.push(file);
    rmSync(file, { force: true });
    const clock = new TestClock(Date.UTC(2025, 5, 1));
    const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '1000' } });
    const first = setup(new Journal(file), clock, sim);
    await first.run.start([]);
    expect(first.run.view().startEquity).toBe('1000'); // measured at start, not 5 s later after the buy
    await first.trade();
    const one = await first.run.stop('restart');
    expect(one.startEquity).toBe('1000');
    expect(Number(one.endEquity)).toBeLessThan(1000); // the fee and the spread
    journals.shift()!.close();

    clock.advance(3_600_000);
    const second = setup(new Journal(file), clock, sim);
    await second.run.start([]);
    const two = await second.run.stop('done');
    // the equity at the restart is below 1000; the run's start is still its first start
    expect(two.startEquity).toBe('1000');
    expect(two.startEquityAt).toBe(one.startEquityAt);
    expect(Number(two.pnl)).toBeCloseTo(Number(two.endEquity) - 1000, 8);
  });

  it('lists the positions still held at exit, valued at the last mid, with the market tick', async () => {
    const clock = new TestClock(Date.UTC(2025, 5, 1));
    const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '1000' } });
    const s = setup(new Journal(':memory:'), clock, sim);
    await s.run.start([]);
    await s.trade();
    const summary = await s.run.stop('over');
    expect(summary.positions).toHaveLength(1);
    const btc = summary.positions![0]!;
    expect(btc).toMatchObject({ asset: 'BTC', market: 'BTCUSD', priceDecimals: 2 });
    expect(Number(btc.value)).toBeCloseTo(Number(btc.amount) * Number(btc.mid), 6);
    expect(Number(btc.value)).toBeGreaterThan(90);
  });
});
