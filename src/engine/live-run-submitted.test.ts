/**
 * Orders the venue answers SUBMITTED (entered into the book later) are not in the OPEN orders poll,
 * yet count toward max_open_orders.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { silentLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { balanceFromWire, type OpenOrderView } from '../state/index.js';
import { defineStrategy, type IntentDraft } from '../strategy/index.js';
import { SimVenue, type PlaceOrderRequest, type VenueOrder } from '../venue/index.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from './strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

/** The simulated venue, except that the next order request can be lost on the way back and land later. */
class LateVenue extends SimVenue {
  loseNext = false;
  pending: PlaceOrderRequest | undefined;
  override async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    if (this.loseNext) {
      this.loseNext = false;
      this.pending = req;
      throw new Error('headers timeout');
    }
    return super.placeOrder(req);
  }
  /** The venue processes the request it had received. */
  async land(): Promise<VenueOrder> {
    const req = this.pending!;
    this.pending = undefined;
    return super.placeOrder(req);
  }
}

function setup(journal = new Journal(':memory:'), clock = new TestClock(Date.UTC(2025, 5, 1)), sim = new SimPlatform({ clock, seed: 7, funding: { USD: '100000' }, rules: { submitDelayMs: 10_000 } })) {
  journals.push(journal);
  const venue = new LateVenue(sim);
  const source = new ScriptedSource();
  let bids = 0;
  const resting = defineStrategy({
    name: 'rest',
    description: 'on a price event, places the asked number of limit buys under mid (they rest)',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: () => ({
      onEvent: (e) => {
        if (e.kind !== 'price') return undefined;
        const out: IntentDraft[] = [];
        for (; bids > 0; bids--) out.push({ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price: (e.price * 0.95).toFixed(2), timeInForce: 'GTC' });
        return out;
      },
    }),
  });
  const run = new LiveRun({
    clock, venue, source, journal,
    config: parseConfig({ risk: { price_band_bps: 2000, max_open_orders: 2 }, streams: { orders_ms: 1_000 } }),
    environment: 'test', refPrefix: 'lw', log: silentLogger(),
    strategies: (ids) => [new StrategyRunner('rest', resting, {}, ['BTCUSD'], ids)],
  });
  const tick = async (n = 0): Promise<void> => {
    const items = (await venue.balances()).map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed()));
    source.account.next({ kind: 'balances', at: clock.now(), items });
    bids = n;
    source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
  };
  const pushOpenOrders = async (): Promise<void> => {
    const orders: OpenOrderView[] = (await venue.listOpenOrders()).map((o) => ({ orderId: o.orderId, refId: o.refId, market: o.market, side: o.side, type: o.type, amountFilled: o.amountFilled, status: o.status }));
    source.account.next({ kind: 'open-orders', at: clock.now(), orders });
  };
  return { clock, sim, venue, source, run, journal, tick, pushOpenOrders };
}

describe('LiveRun and orders not yet entered', () => {
  it('counts our SUBMITTED orders toward max_open_orders although the OPEN poll does not list them', async () => {
    const s = setup();
    await s.run.start([]);
    await s.tick(2);
    await s.run.engine.drain();
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => r.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    await s.pushOpenOrders(); // lists none: both are still SUBMITTED
    await s.clock.advanceAsync(1_000, 500);
    await s.tick(1);
    await s.run.engine.drain();
    expect(s.run.view().decisions.at(-1)).toMatchObject({ kind: 'deny', reason: expect.objectContaining({ code: 'MAX_OPEN_ORDERS' }) });
    expect(s.sim.orders()).toHaveLength(2);
    await s.run.stop('test over');
  });
});
