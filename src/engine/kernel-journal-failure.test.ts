import { config, NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D } from '../core/index.js';
import { Journal } from '../exec/index.js';
import { RiskLimitsSchema } from '../risk/index.js';
import { balanceFromWire } from '../state/index.js';
import type { MarketSource, VenueFill, VenueOrder } from '../venue/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { Kernel } from './kernel.js';

/** RxJS reports a subscriber's error on a zero-delay timer: let it run. */
const reported = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const full = (): Error => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

function source(): { source: MarketSource; fills: Subject<readonly VenueFill[]>; orders: Subject<readonly VenueOrder[]> } {
  const fills = new Subject<readonly VenueFill[]>();
  const orders = new Subject<readonly VenueOrder[]>();
  const source = {
    events$: NEVER,
    account$: NEVER,
    fills$: fills,
    orders$: orders,
    warmUp: async () => [],
    start: () => undefined,
    stop: async () => undefined,
    health: () => [],
  } as unknown as MarketSource;
  return { source, fills, orders };
}

describe('a kernel whose journal refuses writes', () => {
  it('does not throw a refused fill or order write into the stream that brought it (it would end the process)', async () => {
    const clock = new TestClock(1_700_000_000_000);
    const journal = new Journal(':memory:');
    const venue = new ScriptedVenue(() => clock.now());
    const kernel = new Kernel(
      { clock, venue, journal },
      { limits: RiskLimitsSchema.parse({ price_band_bps: 10_000 }), refPrefix: 't', fillsSinceMs: 0, strategies: () => [] },
    );
    kernel.applyAccount({ kind: 'balances', at: clock.now(), items: [balanceFromWire('USD', '1000', '0')] });
    // RxJS hands an error thrown by a subscriber to this hook (by default: thrown on a timer, ending the process)
    const unhandled: unknown[] = [];
    const before = config.onUnhandledError;
    config.onUnhandledError = (e) => unhandled.push(e);
    const s = source();
    kernel.attach(s.source);
    await kernel.orders.place(
      {
        kind: 'place-order',
        intentId: 't-1',
        strategy: 'x',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        baseAmount: '0.1',
        price: '100',
      },
      {
        kind: 'approve',
        at: clock.now(),
        intent: {
          kind: 'place-order',
          intentId: 't-1',
          strategy: 'x',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: '0.1',
          price: '100',
        },
      },
    );
    const order = [...venue.orders.values()][0]!;
    kernel.fills.confirm(order.orderId, 't-1');
    journal.recordFill = () => {
      throw full();
    };
    journal.update = () => {
      throw full();
    };
    const fill: VenueFill = {
      fillId: 'f-1',
      orderId: order.orderId,
      market: 'BTCUSD',
      side: 'BUY',
      amount: new D('0.1'),
      price: new D('100'),
      commission: new D('0'),
      commissionAsset: 'USD',
      at: clock.now(),
    };
    try {
      s.fills.next([fill]);
      s.orders.next([{ ...order, status: 'FILLED' }]);
      await reported();
      expect(unhandled).toEqual([]);
      // a bug is still a crash: an error that is not SQLite's about the file goes on
      journal.recordFill = () => {
        throw new TypeError('a bug');
      };
      s.fills.next([{ ...fill, fillId: 'f-2' }]);
      await reported();
      expect(unhandled.map((e) => (e as Error).message)).toEqual(['a bug']);
    } finally {
      config.onUnhandledError = before;
      kernel.close();
      journal.close();
    }
  });
});
