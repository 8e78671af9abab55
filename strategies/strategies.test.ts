import { describe, expect, it } from 'vitest';
import { instrumentOf } from 'tradeloop';
import { StrategyTestKit } from 'tradeloop/testkit';
import bollinger from './bollinger.js';
import gridMaker from './grid-maker.js';
import quoteDca from './quote-dca.js';
import rsiReversion from './rsi-reversion.js';
import smaCross from './sma-cross.js';

const filled = {
  kind: 'filled',
  refId: 'r',
  orderId: 'o',
  fillId: 'f',
  market: 'BTCUSD',
  side: 'BUY',
  amount: '1',
  price: '1',
  commission: '0',
  commissionAsset: 'USD',
  at: 0,
} as const;

describe('sma-cross', () => {
  it('buys with size_pct of the quote currency on a golden cross when flat', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3, size_pct: 50 }, { USD: '1000.01' });
    expect(kit.prices('BTCUSD', [10, 10, 10])).toEqual([]);
    const out = kit.prices('BTCUSD', [12]);
    expect(out).toEqual([{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' }]);
  });

  it('fills its averages on warm-up history without acting, then buys on the first live cross', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3, size_pct: 50 }, { USD: '1000.01' });
    kit.warmingUp = true;
    expect(kit.prices('BTCUSD', [10, 10, 10, 12])).toEqual([]); // a cross on history: nothing, and nothing pending
    kit.warmingUp = false;
    expect(kit.prices('BTCUSD', [10, 10, 10])).toEqual([]);
    expect(kit.prices('BTCUSD', [12])).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' },
    ]);
  });

  it('sells the whole position on the death cross and not while an order is in flight', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3 }, { USD: '0', BTC: '0.123456789' });
    kit.prices('BTCUSD', [10, 10, 10, 12, 13]);
    const sell = kit.prices('BTCUSD', [8]);
    expect(sell).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.12345678', exitReason: 'signal' },
    ]);
    expect(kit.prices('BTCUSD', [20, 5])).toEqual([]); // pending until a report arrives
    kit.report(filled);
    kit.setBalance('BTC', '0');
  });

  it('does not buy while a position is held', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3 }, { USD: '1000', BTC: '1' });
    expect(kit.prices('BTCUSD', [10, 10, 10, 12])).toEqual([]);
  });

  it('sells at its stop-loss (percent below the entry price) between crosses', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 3, slow: 6, stop_loss_pct: 2 }, { USD: '1000' });
    kit.prices('BTCUSD', [100, 100, 100, 100, 100, 100]);
    const [buy] = kit.prices('BTCUSD', [103]);
    expect(buy).toMatchObject({ side: 'BUY', quoteAmount: '1000.00' });
    kit.report({ ...filled, refId: kit.intentIdOf(buy)!, side: 'BUY', amount: '9.70873786', price: '103', orderDone: true });
    kit.setBalance('USD', '0');
    kit.setBalance('BTC', '9.70873786');
    // the level is 103 less 2 % = 100.94; at 100.95 nothing, at 100.9 the stop sells with no death cross (fast 101.3 > slow 100.65)
    expect(kit.prices('BTCUSD', [100.95])).toEqual([]);
    expect(kit.prices('BTCUSD', [100.9])).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '9.70873786', exitReason: 'stop-loss' },
    ]);
  });

  it('sells at its trailing stop below the highest price since the entry, and at its take-profit', () => {
    const trail = new StrategyTestKit(smaCross, { fast: 2, slow: 3, trailing_stop_pct: 5 }, { USD: '1000' });
    const [trailBuy] = trail.prices('BTCUSD', [100, 100, 100, 103]);
    trail.report({ ...filled, refId: trail.intentIdOf(trailBuy)!, side: 'BUY', amount: '9', price: '103', orderDone: true });
    trail.setBalance('BTC', '9');
    expect(trail.prices('BTCUSD', [120, 125, 119])).toEqual([]); // 5 % below 125 is 118.75
    expect(trail.prices('BTCUSD', [118.7])).toMatchObject([{ side: 'SELL', baseAmount: '9' }]);
    const target = new StrategyTestKit(smaCross, { fast: 2, slow: 3, take_profit_pct: 10 }, { USD: '1000' });
    const [targetBuy] = target.prices('BTCUSD', [100, 100, 100, 103]);
    target.report({ ...filled, refId: target.intentIdOf(targetBuy)!, side: 'BUY', amount: '9', price: '100', orderDone: true });
    target.setBalance('BTC', '9');
    expect(target.prices('BTCUSD', [109.9])).toEqual([]);
    expect(target.prices('BTCUSD', [110])).toMatchObject([{ side: 'SELL' }]);
  });

  it('leaves every exit rule off by default and refuses a stop of 100 % or more, naming the param', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3 }, { USD: '1000' });
    const [buy] = kit.prices('BTCUSD', [100, 100, 100, 103]);
    kit.report({ ...filled, refId: kit.intentIdOf(buy)!, side: 'BUY', amount: '9', price: '103', orderDone: true });
    kit.setBalance('BTC', '9');
    expect(kit.prices('BTCUSD', [104, 105, 50])).toMatchObject([{ side: 'SELL' }]); // the death cross at 50, no stop before
    expect(() => new StrategyTestKit(smaCross, { stop_loss_pct: 100 })).toThrow(/stop_loss_pct/);
  });

  it('rejects fast >= slow with a message naming the field', () => {
    expect(() => new StrategyTestKit(smaCross, { fast: 5, slow: 5 })).toThrow(/fast: fast must be smaller than slow/);
  });
});

describe('rsi-reversion', () => {
  it('buys when RSI drops below the lower band and sells above the upper band', () => {
    const kit = new StrategyTestKit(rsiReversion, { period: 3, lower: 30, upper: 70 }, { USD: '100' });
    const down = kit.prices('BTCUSD', [10, 9, 8, 7, 6]);
    expect(down[0]).toMatchObject({ side: 'BUY', quoteAmount: '100.00' });
    kit.report({ ...filled, refId: kit.intentIdOf(down[0])! });
    kit.setBalance('BTC', '10');
    kit.setBalance('USD', '0');
    const up = kit.prices('BTCUSD', [7, 8, 9, 10]);
    expect(up[0]).toMatchObject({ side: 'SELL', baseAmount: '10' });
  });
});

describe('bollinger', () => {
  it('reversion buys below the lower band and exits at the middle', () => {
    const kit = new StrategyTestKit(bollinger, { period: 5, k: 1, mode: 'reversion' }, { USD: '100' });
    expect(kit.prices('BTCUSD', [10, 10.2, 9.8, 10.1, 9.9])).toEqual([]);
    const [buy] = kit.prices('BTCUSD', [8]);
    expect(buy).toMatchObject({ side: 'BUY' });
    kit.report({ ...filled, refId: kit.intentIdOf(buy)! });
    kit.setBalance('BTC', '1');
    expect(kit.prices('BTCUSD', [11])[0]).toMatchObject({ side: 'SELL', baseAmount: '1' });
  });

  it('breakout buys above the upper band', () => {
    const kit = new StrategyTestKit(bollinger, { period: 5, k: 1, mode: 'breakout' }, { USD: '100' });
    kit.prices('BTCUSD', [10, 10.2, 9.8, 10.1, 9.9]);
    expect(kit.prices('BTCUSD', [12])[0]).toMatchObject({ side: 'BUY' });
  });
});

describe('quote-dca', () => {
  const book = { kind: 'book', market: 'BTCUSD', bids: [{ price: 99.9, amount: 1 }], asks: [{ price: 100.1, amount: 1 }] } as const;

  it('executes the BUY quote near mid once per interval', () => {
    const kit = new StrategyTestKit(quoteDca, { quote_amount: '25.00', interval_ms: 60_000, max_bps: 50 }, { USD: '1000' });
    kit.event(book);
    const out = kit.event({
      kind: 'quote',
      market: 'BTCUSD',
      quoteId: 'q1',
      side: 'BUY',
      price: '100.2',
      expiresAt: kit.clock.now() + 30_000,
    });
    expect(out).toEqual([{ kind: 'execute-quote', market: 'BTCUSD', side: 'BUY', quoteAmount: '25.00', limitPrice: '100.50' }]);
    kit.report({
      kind: 'quote-executed',
      refId: 'r',
      executionId: 'x',
      market: 'BTCUSD',
      side: 'BUY',
      baseAmount: '0.2',
      quoteAmount: '25',
      price: '100.2',
      settled: false,
      at: 0,
    });
    kit.clock.advance(30_000);
    expect(
      kit.event({ kind: 'quote', market: 'BTCUSD', quoteId: 'q2', side: 'BUY', price: '100.2', expiresAt: kit.clock.now() + 30_000 }),
    ).toEqual([]);
    kit.clock.advance(30_000);
    expect(kit.event(book)).toEqual([]); // the held quote has expired: wait for a fresh one
    expect(
      kit.event({ kind: 'quote', market: 'BTCUSD', quoteId: 'q3', side: 'BUY', price: '100.2', expiresAt: kit.clock.now() + 30_000 }),
    ).toHaveLength(1);
  });

  it('skips a quote too far from mid or about to expire', () => {
    const kit = new StrategyTestKit(quoteDca, { max_bps: 10, min_time_left_ms: 3_000 }, { USD: '1000' });
    kit.event(book);
    expect(
      kit.event({ kind: 'quote', market: 'BTCUSD', quoteId: 'far', side: 'BUY', price: '101', expiresAt: kit.clock.now() + 30_000 }),
    ).toEqual([]);
    expect(
      kit.event({ kind: 'quote', market: 'BTCUSD', quoteId: 'old', side: 'BUY', price: '100.05', expiresAt: kit.clock.now() + 2_000 }),
    ).toEqual([]);
    expect(
      kit.event({ kind: 'quote', market: 'BTCUSD', quoteId: 'ok', side: 'BUY', price: '100.05', expiresAt: kit.clock.now() + 10_000 }),
    ).toHaveLength(1);
  });
});

describe('grid-maker', () => {
  it('lays post-only buys below and sells above mid within the inventory cap, on the tick the venue lists', () => {
    const kit = new StrategyTestKit(
      gridMaker,
      { levels: 2, spacing_bps: 100, base_amount: '0.01', max_base: '0.025' },
      { USD: '1000', BTC: '0.01' },
    );
    kit.instruments.set('BTCUSD', instrumentOf({ market: 'BTCUSD', tickRate: '0.5' }));
    const out = kit.event({ kind: 'book', market: 'BTCUSD', bids: [{ price: 99, amount: 1 }], asks: [{ price: 101, amount: 1 }] });
    expect(out.map((o) => (o.kind === 'place-order' ? `${o.side}@${o.price}/${o.type}` : o.kind))).toEqual([
      'BUY@99.0/POST_ONLY_LIMIT',
      'SELL@101.0/POST_ONLY_LIMIT',
    ]);
  });

  it('lays no grid on warm-up history, and lays it on the first live event', () => {
    const kit = new StrategyTestKit(gridMaker, { levels: 1, spacing_bps: 100, base_amount: '0.01', max_base: '1' }, { USD: '1000' });
    kit.warmingUp = true;
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 100 })).toEqual([]); // on history
    kit.warmingUp = false;
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 100.1 })).toEqual([
      {
        kind: 'place-order',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'POST_ONLY_LIMIT',
        baseAmount: '0.01',
        price: '99.09',
        timeInForce: 'GTC',
      },
    ]);
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 100.1 })).toEqual([]);
  });

  it('cancels its orders and re-centres when mid moves beyond recenter_bps', () => {
    const kit = new StrategyTestKit(
      gridMaker,
      { levels: 1, spacing_bps: 100, recenter_bps: 200, base_amount: '0.01', max_base: '1' },
      { USD: '1000' },
    );
    kit.event({ kind: 'price', market: 'BTCUSD', price: 100 });
    kit.openOrders = [
      {
        orderId: 'o1',
        refId: 'g-1',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'POST_ONLY_LIMIT',
        amountFilled: kit.balances.get('BTC') ?? kit.balances.get('USD')!.minus(1000),
        status: 'OPEN',
      },
    ];
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 101 })).toEqual([]);
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 103 })).toEqual([{ kind: 'cancel-order', orderRefId: 'g-1' }]);
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 103 })).toEqual([]);
    kit.openOrders = [];
    expect(kit.event({ kind: 'price', market: 'BTCUSD', price: 103 })).toEqual([
      {
        kind: 'place-order',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'POST_ONLY_LIMIT',
        baseAmount: '0.01',
        price: '101.97',
        timeInForce: 'GTC',
      },
    ]);
  });
});

describe('the built-in strategies plot their indicators', () => {
  it('sma-cross plots its fast and slow averages once both are ready, over the price', () => {
    const kit = new StrategyTestKit(smaCross, { fast: 2, slow: 3 }, { USD: '1000' });
    kit.prices('BTCUSD', [10, 11, 12, 13]);
    expect(kit.plots('BTCUSD', 'fast').map((p) => p[1])).toEqual([11.5, 12.5]);
    expect(kit.plots('BTCUSD', 'slow').map((p) => p[1])).toEqual([11, 12]);
    expect(smaCross.plots).toMatchObject({ fast: {}, slow: {} });
  });

  it('rsi-reversion plots its RSI in a pane of its own', () => {
    const kit = new StrategyTestKit(rsiReversion, { period: 2 }, { USD: '1000' });
    kit.prices('BTCUSD', [10, 11, 12, 11, 13]);
    const rsi = kit.plots('BTCUSD', 'rsi');
    expect(rsi.length).toBeGreaterThan(0);
    expect(rsi.every(([, v]) => v !== null && v >= 0 && v <= 100)).toBe(true);
    expect(rsiReversion.plots?.rsi?.pane).toBe('own');
  });
});
