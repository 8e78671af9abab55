import { config } from 'rxjs';
import { filter, map } from 'rxjs/operators';
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketEvent } from '../../core/index.js';
import { PointMarket } from './market.js';
import { PointReplaySource } from './replay-source.js';

const T0 = Date.UTC(2025, 5, 1);

describe('PointReplaySource streams', () => {
  const onUnhandled = config.onUnhandledError;
  afterEach(() => {
    config.onUnhandledError = onUnhandled;
  });

  it('emits each point to every subscriber, in order, through rxjs operators too', () => {
    const source = new PointReplaySource(new PointMarket({ funding: { USD: '100' } }));
    const a: number[] = [];
    const b: number[] = [];
    source.events$.subscribe((e) => a.push(e.at));
    source.events$
      .pipe(
        filter((e): e is Extract<MarketEvent, { kind: 'price' }> => e.kind === 'price'),
        map((e) => e.price),
      )
      .subscribe((p) => b.push(p));
    source.step('BTCUSD', T0, 100);
    source.step('BTCUSD', T0 + 1, 101);
    expect(a).toEqual([T0, T0 + 1]);
    expect(b).toEqual([100, 101]);
  });

  it('stops calling a subscriber once unsubscribed; one added during a point hears the next one', () => {
    const source = new PointReplaySource(new PointMarket());
    const seen: string[] = [];
    const first = source.events$.subscribe((e) => {
      seen.push(`first ${e.at}`);
      if (e.at === T0) source.events$.subscribe((x) => seen.push(`late ${x.at}`));
    });
    source.step('BTCUSD', T0, 100);
    first.unsubscribe();
    source.step('BTCUSD', T0 + 1, 100);
    expect(seen).toEqual([`first ${T0}`, `late ${T0 + 1}`]);
  });

  it('completes every subscriber on stop, and one subscribing later at once', async () => {
    const source = new PointReplaySource(new PointMarket());
    let completed = 0;
    source.events$.subscribe({ complete: () => completed++ });
    source.account$.subscribe({ complete: () => completed++ });
    await source.stop();
    source.events$.subscribe({ complete: () => completed++ });
    expect(completed).toBe(3);
  });

  it('reports a throwing subscriber as rxjs does, and goes on to the others', () => {
    const errors: unknown[] = [];
    config.onUnhandledError = (e) => errors.push(e);
    const source = new PointReplaySource(new PointMarket());
    const after: number[] = [];
    source.events$.subscribe(() => {
      throw new Error('handler broke');
    });
    source.events$.subscribe((e) => after.push(e.at));
    source.step('BTCUSD', T0, 100);
    expect(after).toEqual([T0]);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        expect(errors).toHaveLength(1);
        expect((errors[0] as Error).message).toBe('handler broke');
        resolve();
      }, 0),
    );
  });
});

describe('PointReplaySource account events', () => {
  it('lists the open orders as the account poll does (fields in order, optional ones only when set), and none once filled', () => {
    const pm = new PointMarket({ funding: { USD: '1000' } });
    const source = new PointReplaySource(pm);
    const seen: string[] = [];
    source.account$.subscribe((e) => {
      if (e.kind === 'open-orders') seen.push(JSON.stringify(e.orders));
    });
    source.step('BTCUSD', T0, 30_000);
    pm.place({ refId: 'r1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.01', price: '29000' });
    source.step('BTCUSD', T0 + 60_000, 29_500);
    source.step('BTCUSD', T0 + 120_000, 28_900);
    expect(seen).toEqual([
      '[]',
      `[{"orderId":"pt-o1","refId":"r1","market":"BTCUSD","side":"BUY","type":"LIMIT","price":"29000","baseAmount":"0.01","amountFilled":"0","status":"OPEN"}]`,
      '[]',
    ]);
  });

  it('sends balances at every change, and an empty open-order list only when the last one listed some', () => {
    const pm = new PointMarket({ funding: { USD: '1000' } });
    const source = new PointReplaySource(pm);
    const seen: string[] = [];
    source.account$.subscribe((e) =>
      seen.push(
        e.kind === 'open-orders'
          ? `open ${e.orders.length}`
          : e.kind === 'balances'
            ? `USD ${e.items.find((b) => b.asset === 'USD')?.available.toFixed()}`
            : e.kind,
      ),
    );
    source.step('BTCUSD', T0, 100);
    // a MARKET order fills at the next point: the account changed twice, no order was ever seen open
    pm.place({ refId: 'm1', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' });
    source.step('BTCUSD', T0 + 60_000, 100);
    pm.place({ refId: 'l1', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '50' });
    source.step('BTCUSD', T0 + 120_000, 100);
    pm.cancel(pm.findOrderByRef('l1')!.id);
    source.step('BTCUSD', T0 + 180_000, 100);
    expect(seen).toEqual(['USD 1000', 'open 0', 'USD 900', 'USD 849.95', 'open 1', 'USD 900', 'open 0']);
  });
});
