import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { silentLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { defineStrategy, type IntentDraft } from '../strategy/index.js';
import { SimVenue } from '../venue/index.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from './strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

const twoBids = defineStrategy({
  name: 'two-bids',
  description: 'two limit buys 5 % and 6 % under mid on the first price (they rest)',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let done = false;
    return {
      onEvent: (e) => {
        if (done || e.kind !== 'price') return undefined;
        done = true;
        return [0.95, 0.94].map((f): IntentDraft => ({ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price: (e.price * f).toFixed(2), timeInForce: 'GTC' }));
      },
    };
  },
});

async function runWithRestingBids(cancelOnExit: boolean) {
  const journal = new Journal(':memory:');
  journals.push(journal);
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '100000' } });
  const venue = new SimVenue(sim);
  const source = new ScriptedSource();
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config: parseConfig({ run: { cancel_on_exit: cancelOnExit }, risk: { price_band_bps: 2000 } }),
    environment: 'test',
    refPrefix: 'sd',
    log: silentLogger(),
    strategies: (ids) => [new StrategyRunner('two-bids', twoBids, {}, ['BTCUSD'], ids)],
  });
  await run.start([]);
  source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
  await run.engine.drain();
  await clock.advanceAsync(1_000, 1_000);
  // the open-orders stream has seen both orders open since their last journal update
  const open = (await venue.listOpenOrders()).map((o) => ({ orderId: o.orderId, refId: o.refId, market: o.market, side: o.side, type: o.type, amountFilled: o.amountFilled, status: o.status }));
  source.account.next({ kind: 'open-orders', at: clock.now(), orders: open });
  await clock.advanceAsync(2_000, 1_000);
  expect(open).toHaveLength(2);
  return { sim, run, journal };
}

describe('LiveRun shutdown', () => {
  it('with cancel_on_exit cancels the resting orders and journals them cancelled, though the stream last saw them open', async () => {
    const s = await runWithRestingBids(true);
    const summary = await s.run.stop('SIGTERM received');
    expect(s.sim.orders().map((o) => o.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => [r.state, r.status])).toEqual([
      ['done', 'CANCELLED'],
      ['done', 'CANCELLED'],
    ]);
    expect(summary.openOrdersLeft).toBe(0);
  });

  it('without cancel_on_exit leaves them resting and journaled open', async () => {
    const s = await runWithRestingBids(false);
    const summary = await s.run.stop('SIGTERM received');
    expect(s.sim.orders().map((o) => o.status)).toEqual(['OPEN', 'OPEN']);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => [r.state, r.status])).toEqual([
      ['open', 'OPEN'],
      ['open', 'OPEN'],
    ]);
    expect(summary.openOrdersLeft).toBe(2);
  });
});
