import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { D, type ExecReport } from '../core/index.js';
import { defineStrategy } from './define.js';
import { describeExit } from './position-exits.js';
import { Position, type PositionOptions } from './position.js';
import { StrategyTestKit } from './testkit.js';

const M = 'BTCUSD';
const idle = defineStrategy({
  name: 'idle',
  description: 'gives the kit a context',
  params: z.object({}),
  markets: [M],
  create: () => ({}),
});

/** A position on a test kit's context, with helpers to feed it prices and reports. */
function rig(options: PositionOptions, balances: Record<string, string> = { USD: '10000' }) {
  const kit = new StrategyTestKit(idle, {}, balances);
  const p = new Position(M, options);
  let seq = 0;
  const price = (value: number) => {
    kit.clock.advance(1_000);
    const event = { kind: 'price', market: M, at: kit.clock.now(), price: value } as const;
    kit.store.apply(event);
    return p.onEvent(event, kit.ctx);
  };
  /** A price closing a bar of an OHLCV replay (open, high, low), the low first unless told. */
  const bar = (open: number, high: number, low: number, close: number, lowFirst = true) => {
    kit.clock.advance(1_000);
    const event = { kind: 'price', market: M, at: kit.clock.now(), price: close, range: { open, high, low, lowFirst } } as const;
    kit.store.apply(event);
    return p.onEvent(event, kit.ctx);
  };
  const report = (r: ExecReport) => p.onReport(r, kit.ctx);
  const fill = (
    refId: string,
    side: 'BUY' | 'SELL',
    amount: string,
    at: string,
    extra: Partial<Extract<ExecReport, { kind: 'filled' }>> = {},
  ): boolean =>
    report({
      kind: 'filled',
      refId,
      orderId: `o-${refId}`,
      fillId: `f-${++seq}`,
      market: M,
      side,
      amount,
      price: at,
      commission: '0',
      commissionAsset: 'USD',
      at: kit.clock.now(),
      ...extra,
    });
  /** Enters at `at` for `amount` BTC in one fill that completes the order. */
  const entered = (at: number, amount = '0.1') => {
    price(at);
    expect(p.enter(kit.ctx)).toMatchObject({ side: 'BUY' });
    fill('e-1', 'BUY', amount, String(at), { orderDone: true });
    kit.setBalance('BTC', amount);
  };
  return { kit, p, price, bar, report, fill, entered };
}

describe('Position: entering and exiting', () => {
  it('enters with a MARKET buy of sizePct of the available quote, rounded down to the instrument', () => {
    const { kit, p } = rig({ sizePct: 33 }, { USD: '1000.07' });
    expect(p.enter(kit.ctx)).toEqual({ kind: 'place-order', market: M, side: 'BUY', type: 'MARKET', quoteAmount: '330.02' });
    expect([p.state, p.busy]).toEqual(['entering', true]);
  });

  it('makes nothing on warm-up, while an order is in flight, while base is held, or when the amount rounds to zero', () => {
    const { kit, p } = rig({ sizePct: 100 });
    kit.warmingUp = true;
    expect(p.enter(kit.ctx)).toBeUndefined();
    kit.warmingUp = false;
    expect(p.enter(kit.ctx)).toBeDefined();
    expect(p.enter(kit.ctx)).toBeUndefined();
    expect(p.exitAll(kit.ctx)).toBeUndefined();
    const held = rig({ sizePct: 100 }, { USD: '100', BTC: '0.5' });
    expect(held.p.enter(held.kit.ctx)).toBeUndefined();
    const poor = rig({ sizePct: 1 }, { USD: '0.99' });
    expect(poor.p.enter(poor.kit.ctx)).toBeUndefined();
    expect(poor.p.busy).toBe(false);
  });

  it('learns the entry price and amount from the fills (volume-weighted, less commission in base) and is busy until the last one', () => {
    const { kit, p, fill } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    expect(fill('bt-1', 'BUY', '0.1', '60000', { orderDone: false })).toBe(true);
    expect(p.busy).toBe(true);
    fill('bt-1', 'BUY', '0.1', '61000', { orderDone: true, commission: '0.0002', commissionAsset: 'BTC' });
    expect([p.state, p.busy]).toEqual(['long', false]);
    expect(p.entryPrice?.toFixed()).toBe('60500');
    expect(p.amount.toFixed()).toBe('0.1998');
  });

  it('exits the whole available base on the strategy signal, and is flat once the sell is filled', () => {
    const { kit, p, fill, price, entered } = rig({ sizePct: 100 });
    entered(60_000, '0.123456789');
    price(60_500);
    expect(p.exitAll(kit.ctx)).toEqual({
      kind: 'place-order',
      market: M,
      side: 'SELL',
      type: 'MARKET',
      baseAmount: '0.12345678',
      exitReason: 'signal',
    });
    expect(p.exitReason).toMatchObject({ kind: 'signal', text: 'exit signal at 60,500.00' });
    fill('x-1', 'SELL', '0.12345678', '60400', { orderDone: true });
    expect([p.state, p.amount.toFixed()]).toEqual(['flat', '0.000000009']);
  });

  it('after a denied or rejected entry is flat and may enter again', () => {
    const { kit, p, report } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    report({ kind: 'denied', refId: 'bt-1', reason: { code: 'MAX_NOTIONAL', message: 'too big', details: {} }, at: 0 });
    expect(p.state).toBe('flat');
    p.enter(kit.ctx);
    report({ kind: 'rejected', refId: 'bt-2', code: 'INSUFFICIENT_FUNDS', message: 'no', at: 0 });
    expect([p.state, p.enter(kit.ctx)?.kind]).toEqual(['flat', 'place-order']);
  });

  it('an unresolved order stays in flight until the executor finds out', () => {
    const { kit, p, report, fill } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    report({ kind: 'unresolved', refId: 'bt-1', message: 'timeout', at: 0 });
    expect(p.busy).toBe(true);
    report({ kind: 'accepted', refId: 'bt-1', orderId: 'o-1', at: 0 });
    fill('bt-1', 'BUY', '0.2', '50000', { orderDone: true });
    expect(p.state).toBe('long');
  });
});

describe('Position: exit rules', () => {
  it('stop-loss percent below the entry: the sell is returned at the level, with the reason in words', () => {
    const { kit, p, price, entered } = rig({ sizePct: 100, stopLossPct: 2 });
    entered(60_000);
    expect(p.levels).toEqual({ stopLoss: 58_800 });
    expect(price(58_801)).toBeUndefined();
    expect(price(58_800)).toEqual({
      kind: 'place-order',
      market: M,
      side: 'SELL',
      type: 'MARKET',
      baseAmount: '0.1',
      exitReason: 'stop-loss',
    });
    expect(p.exitReason).toEqual({ kind: 'stop-loss', level: 58_800, price: 58_800, at: kit.clock.now(), text: 'stop-loss at 58,800.00' });
    expect(p.state).toBe('exiting');
    expect(price(50_000)).toBeUndefined(); // in flight: not twice
  });

  it('stop-loss and take-profit at absolute prices', () => {
    const low = rig({ sizePct: 100, stopLossPrice: 59_000 });
    low.entered(60_000);
    expect(low.price(59_000.5)).toBeUndefined();
    expect(low.price(58_999)).toBeDefined();
    expect(low.p.exitReason?.text).toBe('stop-loss at 59,000.00');
    const high = rig({ sizePct: 100, takeProfitPrice: 61_000 });
    high.entered(60_000);
    expect(high.price(60_999)).toBeUndefined();
    expect(high.price(61_200)).toBeDefined();
    expect(high.p.exitReason).toMatchObject({ kind: 'take-profit', level: 61_000, price: 61_200 });
  });

  it('take-profit percent above the entry', () => {
    const { p, price, entered } = rig({ sizePct: 100, takeProfitPct: 5 });
    entered(100);
    expect(price(104.99)).toBeUndefined();
    expect(price(105.5)).toBeDefined();
    expect(p.exitReason?.text).toBe('take-profit at 105.00');
  });

  it('works its levels out in decimals: a price exactly at 10 % above 100 (110) takes the profit', () => {
    const { p, price, entered } = rig({ sizePct: 100, takeProfitPct: 10, stopLossPct: 7 });
    entered(100);
    expect(p.levels).toEqual({ takeProfit: 110, stopLoss: 93 });
    expect(price(110)).toBeDefined();
  });

  it('trailing stop percent below the highest price seen since the entry', () => {
    const { p, price, entered } = rig({ sizePct: 100, trailingStopPct: 10 });
    entered(100);
    expect(price(95)).toBeUndefined(); // 10 % below the entry is 90
    expect(price(120)).toBeUndefined();
    expect([p.highestPrice, p.levels.trailingStop]).toEqual([120, 108]);
    expect(price(108.5)).toBeUndefined();
    expect(price(108)).toBeDefined();
    expect(p.exitReason?.text).toBe('trailing stop at 108.00');
  });

  it('when a gap crosses both stops, names the higher one (the one crossed first)', () => {
    const { p, price, entered } = rig({ sizePct: 100, stopLossPct: 5, trailingStopPct: 3 });
    entered(100);
    price(110);
    expect(price(80)).toBeDefined();
    expect(p.exitReason).toMatchObject({ kind: 'trailing-stop', level: 106.7 });
  });

  it('an exit that is denied leaves the position held and the rule triggers again on the next price', () => {
    const { p, price, report, entered } = rig({ sizePct: 100, stopLossPct: 2 });
    entered(100);
    expect(price(97)).toBeDefined();
    report({ kind: 'denied', refId: 'x-1', reason: { code: 'RATE', message: 'slow down', details: {} }, at: 0 });
    expect(p.state).toBe('long');
    expect(price(96)).toMatchObject({ side: 'SELL' });
  });

  it('an exit filled in part leaves the rest held; the next exit sells the rest, and one refused after it keeps it held', () => {
    const { kit, p, price, fill, report, entered } = rig({ sizePct: 100, stopLossPct: 2 });
    entered(100, '1');
    expect(price(97)).toMatchObject({ baseAmount: '1' });
    fill('x-1', 'SELL', '0.6', '97', { orderDone: false });
    report({ kind: 'cancelled', refId: 'x-1', orderId: 'o-x-1', at: 0 }); // the rest of an immediate order
    kit.setBalance('BTC', '0.4');
    expect([p.state, p.amount.toFixed()]).toEqual(['long', '0.4']);
    expect(price(96)).toMatchObject({ baseAmount: '0.4' });
    report({ kind: 'rejected', refId: 'x-2', code: 'VENUE', message: 'no', at: 0 });
    expect(p.state).toBe('long');
    expect(price(96)).toMatchObject({ baseAmount: '0.4' });
    fill('x-3', 'SELL', '0.4', '96', { orderDone: true });
    expect([p.state, p.amount.toFixed()]).toEqual(['flat', '0']);
  });

  it('only checks events of its own market and nothing on warm-up', () => {
    const { kit, p, entered } = rig({ sizePct: 100, stopLossPct: 2 });
    entered(100);
    expect(p.onEvent({ kind: 'price', market: 'ETHUSD', at: kit.clock.now(), price: 1 }, kit.ctx)).toBeUndefined();
    kit.warmingUp = true;
    expect(p.onEvent({ kind: 'price', market: M, at: kit.clock.now(), price: 1 }, kit.ctx)).toBeUndefined();
  });

  it('reads the bid of a ticker or book event', () => {
    const { kit, p, entered } = rig({ sizePct: 100, stopLossPct: 2 });
    entered(100);
    const at = kit.clock.now();
    expect(
      p.onEvent({ kind: 'book', market: M, at, bids: [{ price: 99, amount: 1 }], asks: [{ price: 97, amount: 1 }] }, kit.ctx),
    ).toBeUndefined();
    expect(
      p.onEvent({ kind: 'ticker', market: M, at, bid: { price: 97.5, amount: 1 }, last: { price: 99, amount: 1 } }, kit.ctx),
    ).toBeDefined();
  });
});

describe('Position: exit rules inside a bar (OHLCV replay)', () => {
  it("checks the stop-loss on the bar's low, and its sell carries the level for the replay to fill inside the bar", () => {
    const { p, bar, entered } = rig({ sizePct: 100, stopLossPct: 5 });
    entered(100);
    // the low stays above 95: nothing; the next bar goes through 95 and closes back above it
    expect(bar(100, 101, 95.5, 100)).toBeUndefined();
    expect(bar(99, 100, 94, 98)).toMatchObject({ side: 'SELL', type: 'MARKET', exitReason: 'stop-loss', exitLevel: '95' });
    expect(p.exitReason).toMatchObject({ kind: 'stop-loss', level: 95, price: 98 });
  });

  it('of a stop-loss and a take-profit both reached in one bar, takes the extreme the replay says came first', () => {
    const adverse = rig({ sizePct: 100, stopLossPct: 5, takeProfitPct: 5 });
    adverse.entered(100);
    expect(adverse.bar(100, 106, 94, 100)).toMatchObject({ exitReason: 'stop-loss', exitLevel: '95' });
    const favorable = rig({ sizePct: 100, stopLossPct: 5, takeProfitPct: 5 });
    favorable.entered(100);
    expect(favorable.bar(100, 106, 94, 100, false)).toMatchObject({ exitReason: 'take-profit', exitLevel: '105' });
    // only the take-profit reached: the high, whichever came first
    const high = rig({ sizePct: 100, stopLossPct: 5, takeProfitPct: 5 });
    high.entered(100);
    expect(high.bar(100, 105, 99, 101)).toMatchObject({ exitReason: 'take-profit', exitLevel: '105' });
  });

  it('checks the trailing stop in force when the bar opened, then raises it by the high; a close below the raised level exits unpriced', () => {
    const { p, bar, entered } = rig({ sizePct: 100, trailingStopPct: 10 });
    entered(100);
    // a bar up to 120 and down to 95: the low first, against the stop of the high before (90): held
    expect(bar(100, 120, 95, 110)).toBeUndefined();
    expect([p.highestPrice, p.levels.trailingStop]).toEqual([120, 108]);
    // the next bar's low reaches 108: filled inside the bar at the level
    expect(bar(110, 111, 107, 109)).toMatchObject({ exitReason: 'trailing-stop', exitLevel: '108' });

    const late = rig({ sizePct: 100, trailingStopPct: 10 });
    late.entered(100);
    // the high of 130 (after the low) raises the stop to 117 and the bar closes at 116: a close's exit,
    // at the next bar's open (no level: the replay cannot tell where after the high it went)
    const exit = late.bar(100, 130, 99, 116);
    expect(exit).toMatchObject({ exitReason: 'trailing-stop' });
    expect(exit).not.toHaveProperty('exitLevel');
  });

  it('without a bar, checks the price alone and its sell carries no level', () => {
    const { price, entered } = rig({ sizePct: 100, stopLossPct: 5 });
    entered(100);
    expect(price(94)).not.toHaveProperty('exitLevel');
  });
});

describe('Position: following its orders', () => {
  it('an order the venue closes after its fills were reported (no report of its own) is done once it leaves the open orders', () => {
    const { kit, p, fill, price } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    kit.openOrders = [
      {
        orderId: 'o-1',
        refId: 'bt-7',
        market: M,
        side: 'BUY',
        type: 'MARKET',
        quoteAmount: new D('10000'),
        amountFilled: new D('0'),
        status: 'OPEN',
      },
    ];
    price(100);
    fill('bt-7', 'BUY', '50', '100', { orderDone: false });
    price(100);
    expect(p.busy).toBe(true);
    kit.openOrders = [];
    price(100);
    expect([p.state, p.amount.toFixed()]).toEqual(['long', '50']);
  });

  it('takes only reports of its own orders: other markets, other sides and earlier unknown intents are not its own', () => {
    const { kit, p, fill, report } = rig({ sizePct: 100 });
    expect(report({ kind: 'accepted', refId: 'other-1', orderId: 'o', at: 0 })).toBe(false); // nothing in flight
    p.enter(kit.ctx);
    expect(
      report({
        kind: 'filled',
        refId: 'eth-1',
        orderId: 'o',
        fillId: 'f',
        market: 'ETHUSD',
        side: 'BUY',
        amount: '1',
        price: '1',
        commission: '0',
        commissionAsset: 'USD',
        at: 0,
      }),
    ).toBe(false);
    expect(fill('sell-1', 'SELL', '1', '1')).toBe(false);
    expect(report({ kind: 'accepted', refId: 'bt-3', orderId: 'o-3', at: 0 })).toBe(true);
    expect(report({ kind: 'cancelled', refId: 'other-2', orderId: 'o', at: 0 })).toBe(false);
    expect(p.busy).toBe(true);
  });

  it('counts a fill that comes after its order was reported cancelled', () => {
    const { kit, p, fill, report } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    report({ kind: 'cancelled', refId: 'bt-1', orderId: 'o-1', at: 0 });
    expect(p.state).toBe('flat');
    fill('bt-1', 'BUY', '0.3', '100', { orderDone: true });
    expect([p.state, p.entryPrice?.toFixed()]).toEqual(['long', '100']);
  });

  it('adopts a holding found before it made any order, at the first price seen, and arms the rules from there', () => {
    const { kit, p, price } = rig({ sizePct: 100, stopLossPct: 10 }, { USD: '0', BTC: '0.5' });
    expect(price(200)).toBeUndefined();
    expect([p.state, p.adoptedAt, p.amount.toFixed(), p.levels.stopLoss]).toEqual(['long', 200, '0.5', 180]);
    expect(p.enter(kit.ctx)).toBeUndefined();
    expect(price(179)).toMatchObject({ side: 'SELL', baseAmount: '0.5' });
  });
});

describe('Position: what it reads per point', () => {
  it('answers held() afresh whenever the account gives another total, and keeps its answer while it gives the same', () => {
    const { kit, p } = rig({ sizePct: 100 }, { USD: '100' });
    expect(p.held(kit.ctx)).toBe(false);
    kit.setBalance('BTC', '0.00000001');
    expect(p.held(kit.ctx)).toBe(true);
    kit.setBalance('BTC', '0');
    expect(p.held(kit.ctx)).toBe(false);
    // a context of its own making, whose totals are new objects each time, and one that hands out the same
    const totals = [D('0'), D('-0'), D('2'), D('0')];
    let i = 0;
    // (without positions, as a context of an older kit: held() reads the account's total)
    const fresh = { ...kit.ctx, position: undefined as never, account: { ...kit.ctx.account, total: () => totals[i++]! } };
    expect([p.held(fresh), p.held(fresh), p.held(fresh), p.held(fresh)]).toEqual([false, false, true, false]);
    const one = D('3');
    const same = { ...kit.ctx, position: undefined as never, account: { ...kit.ctx.account, total: () => one } };
    expect([p.held(same), p.held(same)]).toEqual([true, true]);
  });

  it('a deposit of base before any order is adopted at the next price, as a holding found at start', () => {
    const { kit, p, price } = rig({ sizePct: 100, stopLossPct: 10 }, { USD: '0' });
    expect(price(100)).toBeUndefined();
    expect(p.state).toBe('flat');
    kit.setBalance('BTC', '0.25');
    expect(price(200)).toBeUndefined();
    expect([p.state, p.adoptedAt, p.amount.toFixed(), p.highestPrice]).toEqual(['long', 200, '0.25', 200]);
  });

  it("keeps an exit reason's words in a copy and in JSON", () => {
    const { p, price, entered } = rig({ sizePct: 100, takeProfitPct: 5 });
    entered(100);
    expect(p.highestPrice).toBe(100);
    price(105);
    const copy = { ...p.exitReason };
    expect(copy.text).toBe('take-profit at 105.00');
    expect(JSON.parse(JSON.stringify(p.exitReason))).toMatchObject({ kind: 'take-profit', level: 105, text: 'take-profit at 105.00' });
  });
});

describe('describeExit', () => {
  it.each([
    [58_800, 2, 'stop-loss at 58,800.00'],
    [0.5, 2, 'stop-loss at 0.50'],
    [999.999, 2, 'stop-loss at 1,000.00'],
    [123, 0, 'stop-loss at 123'],
    [1234, 0, 'stop-loss at 1,234'],
    [123_456.125, 8, 'stop-loss at 123,456.12500000'],
    [1_234_567_890, 2, 'stop-loss at 1,234,567,890.00'],
    [-1234.5, 1, 'stop-loss at -1,234.5'],
    [-12, 2, 'stop-loss at -12.00'],
    [-0.001, 2, 'stop-loss at -0.00'],
    [1e21, 2, 'stop-loss at 1e+21'],
    [Infinity, 2, 'stop-loss at Infinity'],
    [NaN, 2, 'stop-loss at NaN'],
  ])('writes %d at %d places with thousands separators: %s', (level, decimals, text) => {
    expect(describeExit('stop-loss', level, decimals)).toBe(text);
  });

  it('names each rule', () => {
    expect(['stop-loss', 'take-profit', 'trailing-stop', 'signal'].map((k) => describeExit(k as 'signal', 1000, 2))).toEqual([
      'stop-loss at 1,000.00',
      'take-profit at 1,000.00',
      'trailing stop at 1,000.00',
      'exit signal at 1,000.00',
    ]);
  });
});

describe('Position options', () => {
  it.each([
    [{ sizePct: 0 }, /sizePct 0 is not valid: give a percent of the quote balance/],
    [{ sizePct: 101 }, /sizePct 101/],
    [{ sizePct: 50, stopLossPct: 100 }, /stopLossPct 100 is not valid: give a percent below the price/],
    [{ sizePct: 50, trailingStopPct: -1 }, /trailingStopPct -1/],
    [{ sizePct: 50, takeProfitPct: Number.NaN }, /takeProfitPct/],
    [{ sizePct: 50, stopLossPrice: 0 }, /stopLossPrice 0 is not valid: give a price above 0/],
    [{ sizePct: 50, stopLossPct: 2, stopLossPrice: 100 }, /give stopLossPct or stopLossPrice, not both/],
    [{ sizePct: 50, takeProfitPct: 2, takeProfitPrice: 100 }, /give takeProfitPct or takeProfitPrice, not both/],
  ])('refuses %j naming the option and the fix', (options, message) => {
    expect(() => new Position(M, options as PositionOptions)).toThrow(message);
  });
});

describe('Position knows its own orders by the id the engine gave them', () => {
  it("does not take another order's report for its own, whichever comes first", () => {
    const seen: boolean[] = [];
    const plugin = defineStrategy({
      name: 'two-orders',
      description: 'enters with the helper and rests a limit bid of its own in the same event',
      params: z.object({}),
      markets: ['BTCUSD'],
      create() {
        const position = new Position('BTCUSD', { sizePct: 50, stopLossPct: 5 });
        let done = false;
        return {
          onEvent(e, ctx) {
            const exit = position.onEvent(e, ctx);
            if (exit) return exit;
            if (done || e.kind !== 'price') return undefined;
            done = true;
            const entry = position.enter(ctx);
            return (
              entry && [
                { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '50.00', timeInForce: 'GTC' },
                entry,
              ]
            );
          },
          onReport(r, ctx) {
            seen.push(position.onReport(r, ctx));
          },
        };
      },
    });
    const kit = new StrategyTestKit(plugin, {}, { USD: '1000' });
    const [limit, entry] = kit.prices('BTCUSD', [100]);
    expect(kit.intentIdOf(limit)).toBe('kit-1');
    expect(kit.intentIdOf(entry)).toBe('kit-2');
    // the limit order's answer comes first: not the helper's
    kit.report({ kind: 'accepted', refId: 'kit-1', orderId: 'o-limit', at: kit.clock.now() });
    expect(seen).toEqual([false]);
    kit.fill(entry, { price: '100' });
    expect(seen).toEqual([false, true, true]);
    // long 5 BTC from 100: the stop at 95 sells exactly what the helper bought
    expect(kit.prices('BTCUSD', [94])).toEqual([
      { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '5', exitReason: 'stop-loss' },
    ]);
  });
});

describe('Position: entry price and size, fill by fill', () => {
  it("takes a single fill's price as the entry price, weights from the second fill on, and starts afresh at the next entry", () => {
    const { kit, p, fill } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    fill('bt-1', 'BUY', '0.3', '60000.123456789', { orderDone: false });
    expect(p.entryPrice?.toFixed()).toBe('60000.123456789');
    fill('bt-1', 'BUY', '0.1', '61000', { orderDone: true });
    // (0.3 × 60000.123456789 + 0.1 × 61000) / 0.4
    expect(p.entryPrice?.toFixed()).toBe('60250.09259259175');
    kit.setBalance('BTC', '0.4');
    expect(p.exitAll(kit.ctx)).toMatchObject({ side: 'SELL', baseAmount: '0.4' });
    fill('bt-2', 'SELL', '0.4', '62000', { orderDone: true });
    kit.setBalance('BTC', '0');
    expect(p.state).toBe('flat');
    expect(p.enter(kit.ctx)).toMatchObject({ side: 'BUY' });
    fill('bt-3', 'BUY', '0.2', '59000.5', { orderDone: true });
    expect(p.entryPrice?.toFixed()).toBe('59000.5');
  });

  it('counts exactly when a later fill is finer than the earlier ones (amounts, commission in base and prices)', () => {
    const { kit, p, fill } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    const fills = [
      ['0.25', '60000.5', '0'],
      ['0.1234567891234', '60001.123456789012', '0.00000000000017'],
      ['1e-12', '6.0002e4', '0'],
    ] as const;
    fills.forEach(([amount, price, commission], i) =>
      fill('bt-1', 'BUY', amount, price, { orderDone: i === fills.length - 1, commission, commissionAsset: 'BTC' }),
    );
    const gross = fills.reduce((sum, [a]) => sum.plus(a), new D(0));
    const cost = fills.reduce((sum, [a, at]) => sum.plus(new D(a).times(at)), new D(0));
    const net = fills.reduce((sum, [a, , c]) => sum.plus(a).minus(c), new D(0));
    expect(p.state).toBe('long');
    expect(p.entryPrice?.toFixed()).toBe(cost.div(gross).toFixed());
    expect(p.amount.toFixed()).toBe(net.toFixed());
    expect(p.highestPrice).toBe(cost.div(gross).toNumber());
    kit.setBalance('BTC', net.toFixed());
    expect(p.exitAll(kit.ctx)).toMatchObject({ side: 'SELL', baseAmount: '0.37345678' });
    fill('bt-2', 'SELL', '0.3', '61000', { orderDone: false, commission: '0.0000000000001', commissionAsset: 'BTC' });
    expect(p.amount.toFixed()).toBe(net.minus('0.3000000000001').toFixed());
    expect(p.busy).toBe(true);
  });

  it('refuses a report whose amount is not a decimal, naming it', () => {
    const { kit, p, fill } = rig({ sizePct: 100 });
    p.enter(kit.ctx);
    expect(() => fill('bt-1', 'BUY', 'NaN', '60000', { orderDone: true })).toThrow(
      'Position("BTCUSD"): a report\'s amount "NaN" is not a decimal of at most 100 places',
    );
  });

  it('spends a fractional sizePct exactly (12.5 % of 1000.07 is 125.00875, rounded down to 125.00)', () => {
    const { kit, p } = rig({ sizePct: 12.5 }, { USD: '1000.07' });
    expect(p.enter(kit.ctx)).toMatchObject({ quoteAmount: '125.00' });
    const third = rig({ sizePct: 33.3 }, { USD: '1000.07' });
    // 1000.07 × 0.333 = 333.02331
    expect(third.p.enter(third.kit.ctx)).toMatchObject({ quoteAmount: '333.02' });
  });
});
