/**
 * A LiveRun on one TestClock over the simulated platform, driven by hand: a ScriptedSource feeds it
 * balances, prices and open orders, and a strategy places as many resting limit buys as the test asks
 * for on the next price. The venue is a SimVenue, or a subclass that misbehaves as a test needs.
 */
import { z } from 'zod';
import { TestClock } from '../../src/clock/index.js';
import { parseConfig } from '../../src/config/index.js';
import { LiveRun } from '../../src/live/live-run.js';
import { StrategyRunner } from '../../src/engine/strategy-runner.js';
import { Journal } from '../../src/exec/index.js';
import { silentLogger } from '../../src/log/index.js';
import { SimPlatform } from '../../src/sim/sim.js';
import type { SimOptions } from '../../src/sim/sim-options.js';
import { balanceFromWire, type OpenOrderView } from '../../src/state/index.js';
import { defineStrategy, type IntentDraft, type StrategyDefinition } from '../../src/strategy/index.js';
import { SimVenue } from '../../src/venue/index.js';
import { ScriptedSource } from './scripted-source.js';

export interface LiveRunRigOptions<V extends SimVenue> {
  /** The venue over the sim (default a plain SimVenue). */
  readonly venue?: (sim: SimPlatform) => V;
  /** Config sections merged into the run's config. */
  readonly config?: Record<string, unknown>;
  readonly refPrefix?: string;
  /** Trading rules of a new sim. */
  readonly rules?: SimOptions['rules'];
  /** Shared with an earlier rig to play a restart: the same journal, clock and platform. */
  readonly journal?: Journal;
  readonly clock?: TestClock;
  readonly sim?: SimPlatform;
  /** Runs this strategy (no params, BTCUSD) instead of the rig's resting bids; `tick`'s count is then unused. */
  readonly strategy?: StrategyDefinition;
  /** More strategies (no params, BTCUSD) run beside it on the same account. */
  readonly alongside?: readonly StrategyDefinition[];
}

/** A MARKET buy of 100 USD of BTC on the first live price, once (again after a rejection). */
export const buyOnce = defineStrategy({
  name: 'buy-once',
  description: 'buys 100 USD of BTC on the first live price',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let done = false;
    return {
      onEvent: (e, ctx) => {
        if (done || e.kind !== 'price' || ctx.warmingUp) return undefined;
        done = true;
        return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100.00' };
      },
      onReport: (r) => {
        if (r.kind === 'rejected') done = false;
      },
    };
  },
});

const journals: Journal[] = [];

/** Closes every journal the rigs opened (call from afterEach). */
export function closeRigJournals(): void {
  journals.splice(0).forEach((j) => j.close());
}

export function liveRunRig<V extends SimVenue = SimVenue>(o: LiveRunRigOptions<V> = {}) {
  const journal = o.journal ?? new Journal(':memory:');
  journals.push(journal);
  const clock = o.clock ?? new TestClock(Date.UTC(2025, 5, 1));
  const sim = o.sim ?? new SimPlatform({ clock, seed: 7, funding: { USD: '100000' }, ...(o.rules && { rules: o.rules }) });
  const venue = o.venue ? o.venue(sim) : (new SimVenue(sim) as V);
  const source = new ScriptedSource();
  let bids = 0;
  const resting = defineStrategy({
    name: 'rest',
    description: 'on a price event, places the asked number of limit buys 5 % to 8 % under mid (they rest)',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: () => ({
      onEvent: (e) => {
        if (e.kind !== 'price') return undefined;
        const out: IntentDraft[] = [];
        for (; bids > 0; bids--)
          out.push({
            kind: 'place-order',
            market: 'BTCUSD',
            side: 'BUY',
            type: 'LIMIT',
            baseAmount: '0.01',
            price: (e.price * (0.95 - 0.01 * bids)).toFixed(2),
            timeInForce: 'GTC',
          });
        return out;
      },
    }),
  });
  const config = o.config ?? {};
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config: parseConfig({
      ...config,
      risk: { price_band_bps: 2000, ...(config.risk as object | undefined) },
      streams: { orders_ms: 1_000, ...(config.streams as object | undefined) },
    }),
    environment: 'test',
    refPrefix: o.refPrefix ?? 'rig',
    log: silentLogger(),
    strategies: (ids) => [
      o.strategy
        ? new StrategyRunner(o.strategy.name, o.strategy, {}, ['BTCUSD'], ids)
        : new StrategyRunner('rest', resting, {}, ['BTCUSD'], ids),
      ...(o.alongside ?? []).map((d) => new StrategyRunner(d.name, d, {}, ['BTCUSD'], ids)),
    ],
  });
  /** Streams balances (USD `usd` when given, else the venue's) and a price; the strategy places `n` bids. */
  const tick = async (n = 0, usd?: string): Promise<void> => {
    const items =
      usd !== undefined
        ? [balanceFromWire('USD', usd, '0')]
        : (await venue.balances()).map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed()));
    source.account.next({ kind: 'balances', at: clock.now(), items });
    bids = n;
    source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
  };
  /** Streams the venue's open orders, as the open-orders poll would. */
  const pushOpenOrders = async (): Promise<void> => {
    const orders: OpenOrderView[] = (await venue.listOpenOrders()).map((x) => ({
      orderId: x.orderId,
      refId: x.refId,
      market: x.market,
      side: x.side,
      type: x.type,
      amountFilled: x.amountFilled,
      status: x.status,
    }));
    source.account.next({ kind: 'open-orders', at: clock.now(), orders });
  };
  const openAtVenue = () => sim.orders().filter((x) => x.status === 'OPEN');
  return { clock, sim, venue, source, run, journal, tick, pushOpenOrders, openAtVenue };
}
