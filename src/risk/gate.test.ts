import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D, type Dec, type Intent } from '../core/index.js';
import { instrumentOf } from '../platform/instruments.js';
import { MarketStore } from '../state/index.js';
import { RiskGate } from './gate.js';
import { RiskLimitsSchema, type RiskLimits } from './limits.js';
import type { RiskView } from './view.js';

function setup(limits: Partial<RiskLimits> = {}, balances: Record<string, string> = { USD: '10000', BTC: '1' }) {
  const clock = new TestClock(1_000_000);
  const store = new MarketStore(clock);
  store.apply({ kind: 'book', market: 'BTCUSD', at: clock.now(), bids: [{ price: 99, amount: 5 }], asks: [{ price: 101, amount: 5 }] });
  let open = 0;
  const remaining: Record<string, Dec> = {};
  const view: RiskView = {
    now: () => clock.now(),
    market: (m) => store.snapshot(m),
    available: (a) => new D(balances[a] ?? '0'),
    total: (a) => new D(balances[a] ?? '0'),
    openOrderCount: () => open,
    instrument: (m) => (m === 'BTCUSD' ? instrumentOf({ market: 'BTCUSD', tickRate: '0.25' }) : undefined),
    transferRemaining: (a) => remaining[a],
  };
  const gate = new RiskGate(RiskLimitsSchema.parse(limits), view);
  return { clock, store, gate, setOpen: (n: number) => (open = n), remaining };
}

let seq = 0;
function limitBuy(over: Partial<Extract<Intent, { kind: 'place-order' }>> = {}): Intent {
  return {
    kind: 'place-order',
    intentId: `i-${++seq}`,
    strategy: 's',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '1',
    price: '100',
    ...over,
  };
}

function codeOf(gate: RiskGate, intent: Intent): string {
  const d = gate.decide(intent);
  return d.kind === 'approve' ? 'approve' : d.reason.code;
}

describe('RiskGate', () => {
  it('approves a sound limit buy', () => {
    expect(codeOf(setup().gate, limitBuy())).toBe('approve');
  });

  it('denies NaN, negative and zero amounts as INVALID_INTENT naming the field', () => {
    const { gate } = setup();
    for (const baseAmount of ['NaN', '-1', '0', '1e3']) {
      const d = gate.decide(limitBuy({ baseAmount }));
      expect(d.kind).toBe('deny');
      if (d.kind === 'deny') {
        expect(d.reason.code).toBe('INVALID_INTENT');
        expect(d.reason.details.field).toBe('baseAmount');
      }
    }
  });

  it('denies an unknown market and one outside allowed_markets', () => {
    expect(codeOf(setup().gate, limitBuy({ market: 'DOGEUSD' }))).toBe('MARKET_NOT_ALLOWED');
    expect(codeOf(setup({ allowed_markets: ['ETHUSD'] }).gate, limitBuy())).toBe('MARKET_NOT_ALLOWED');
  });

  it('denies over-precise amounts and off-tick prices with PRECISION', () => {
    const { gate } = setup();
    expect(codeOf(gate, limitBuy({ baseAmount: '0.123456789' }))).toBe('PRECISION');
    expect(codeOf(gate, limitBuy({ price: '100.1' }))).toBe('PRECISION');
    expect(
      codeOf(gate, {
        kind: 'place-order',
        intentId: 'm',
        strategy: 's',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'MARKET',
        quoteAmount: '10.001',
      }),
    ).toBe('PRECISION');
  });

  it('denies a buy beyond the available balance with the numbers behind it', () => {
    const d = setup({}, { USD: '50' }).gate.decide(limitBuy());
    expect(d.kind === 'deny' && d.reason).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { asset: 'USD', required: '100.10', available: '50' },
    });
  });

  it('denies a sell of more base than held', () => {
    expect(codeOf(setup().gate, limitBuy({ side: 'SELL', baseAmount: '2' }))).toBe('INSUFFICIENT_BALANCE');
  });

  it('denies MAX_NOTIONAL and MINIMUM', () => {
    expect(codeOf(setup({ max_order_notional: '50' }).gate, limitBuy())).toBe('MAX_NOTIONAL');
    expect(codeOf(setup({ min_order_notional: '500' }).gate, limitBuy())).toBe('MINIMUM');
  });

  it('denies MAX_POSITION when a buy would exceed the cap', () => {
    expect(codeOf(setup({ max_position: { BTC: '1.5' } }).gate, limitBuy())).toBe('MAX_POSITION');
  });

  it('never denies an order that only reduces a position for max_order_notional or max_position', () => {
    // 300 BTC held at mid 100 is 30,000 USD: over the 25,000 limit and the 2 BTC cap, yet it can be sold in one order
    const s = setup({ max_order_notional: '25000', max_position: { BTC: '2' } }, { USD: '0', BTC: '300' });
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '300' }))).toBe('approve');
    expect(
      codeOf(s.gate, {
        kind: 'place-order',
        intentId: 'ms',
        strategy: 's',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '300',
      }),
    ).toBe('approve');
    // the same limits still cap what adds exposure
    const b = setup({ max_order_notional: '25000' }, { USD: '100000', BTC: '0' });
    expect(codeOf(b.gate, limitBuy({ baseAmount: '300' }))).toBe('MAX_NOTIONAL');
    expect(codeOf(setup({ max_position: { BTC: '2' } }, { USD: '100000', BTC: '300' }).gate, limitBuy({ baseAmount: '1' }))).toBe(
      'MAX_POSITION',
    );
  });

  it('still holds a reducing sell to the balance, precision and minimum, and to the limits while halted', () => {
    const s = setup({ max_order_notional: '25000', daily_loss_limit: '100' }, { USD: '0', BTC: '300' });
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '301' }))).toBe('INSUFFICIENT_BALANCE');
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '300', price: '100.1' }))).toBe('PRECISION');
    expect(codeOf(setup({ min_order_notional: '500' }, { USD: '0', BTC: '300' }).gate, limitBuy({ side: 'SELL', baseAmount: '1' }))).toBe(
      'MINIMUM',
    );
    s.gate.killSwitch.trip('operator');
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '300' }))).toBe('approve');
  });

  it('denies MAX_OPEN_ORDERS at the cap', () => {
    const s = setup({ max_open_orders: 3 });
    s.setOpen(3);
    expect(codeOf(s.gate, limitBuy())).toBe('MAX_OPEN_ORDERS');
  });

  it('denies RATE beyond the intents per minute and recovers after the window', () => {
    const s = setup({ max_intents_per_minute: 2 });
    expect(codeOf(s.gate, limitBuy())).toBe('approve');
    expect(codeOf(s.gate, limitBuy())).toBe('approve');
    expect(codeOf(s.gate, limitBuy())).toBe('RATE');
    s.clock.advance(60_001);
    s.store.apply({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 100 });
    expect(codeOf(s.gate, limitBuy())).toBe('approve');
  });

  it('denies PRICE_BAND for a limit far from mid', () => {
    expect(codeOf(setup({ price_band_bps: 100 }).gate, limitBuy({ price: '110' }))).toBe('PRICE_BAND');
  });

  it('decides the price band at its edges exactly, with the distance in the denial as before', () => {
    // mid 100 (book 99/101), band 100 bps: 101 and 99 are on the edge, a tick beyond is out
    const { gate } = setup({ price_band_bps: 100 });
    expect(codeOf(gate, limitBuy({ price: '101' }))).toBe('approve');
    expect(codeOf(gate, limitBuy({ price: '99' }))).toBe('approve');
    const d = gate.decide(limitBuy({ price: '101.25' }));
    expect(d.kind === 'deny' && d.reason).toEqual({
      code: 'PRICE_BAND',
      message: 'price 101.25 is 125 bps from mid 100 (band 100 bps)',
      details: { price: '101.25', mid: '100', distance_bps: 125, band_bps: 100 },
    });
    expect(codeOf(gate, limitBuy({ price: '98.75', side: 'SELL', baseAmount: '0.5' }))).toBe('PRICE_BAND');
    // a band that is not a whole number of bps, and a mid whose distance does not divide evenly
    const s = setup({ price_band_bps: 33.5 });
    s.store.apply({
      kind: 'book',
      market: 'BTCUSD',
      at: s.clock.now(),
      bids: [{ price: 299.5, amount: 5 }],
      asks: [{ price: 300.5, amount: 5 }],
    });
    expect(codeOf(s.gate, limitBuy({ price: '301', baseAmount: '0.1' }))).toBe('approve'); // 33.33… bps
    const far = s.gate.decide(limitBuy({ price: '301.25', baseAmount: '0.1' })); // 41.67 bps
    expect(far.kind === 'deny' && far.reason.details).toEqual({ price: '301.25', mid: '300', distance_bps: 41.67, band_bps: 33.5 });
  });

  it('asks a buy for its value plus the fee, to the cent', () => {
    // 1 BTC at 100 with the default fee of 10 bps: 100.10 USD
    expect(codeOf(setup({ fee_bps: 10 }, { USD: '100.1', BTC: '0' }).gate, limitBuy())).toBe('approve');
    const d = setup({ fee_bps: 10 }, { USD: '100.09', BTC: '0' }).gate.decide(limitBuy());
    expect(d.kind === 'deny' && d.reason).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'needs 100.10 USD, 100.09 available',
      details: { asset: 'USD', required: '100.10', available: '100.09' },
    });
    // a fee that is not a whole number of bps on a value that does not divide evenly
    const odd = setup({ fee_bps: 7.5 }, { USD: '33.358', BTC: '0' }).gate.decide(limitBuy({ price: '100.25', baseAmount: '0.333' }));
    expect(odd.kind === 'deny' && odd.reason.details).toEqual({ asset: 'USD', required: '33.41', available: '33.358' });
  });

  it('decides at the exact edges of the notional bounds and the balance, and words the numbers as before', () => {
    const max = setup({ max_order_notional: '250.25' }, { USD: '1000', BTC: '0' });
    expect(codeOf(max.gate, limitBuy({ baseAmount: '2.5025', price: '100' }))).toBe('approve');
    const over = max.gate.decide(limitBuy({ baseAmount: '2.50250001', price: '100' }));
    expect(over.kind === 'deny' && over.reason).toEqual({
      code: 'MAX_NOTIONAL',
      message: 'notional 250.25 USD exceeds the limit 250.25',
      details: { notional: '250.25', max_notional: '250.25', asset: 'USD' },
    });
    // a quote-sized buy needs exactly its quote amount (no fee on top), to the cent
    const spend = setup({}, { USD: '1234.56', BTC: '0' });
    const buy = (quoteAmount: string): Intent => ({
      kind: 'place-order',
      intentId: `q-${++seq}`,
      strategy: 's',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'MARKET',
      quoteAmount,
    });
    expect(codeOf(spend.gate, buy('1234.56'))).toBe('approve');
    expect(codeOf(spend.gate, buy('1234.560'))).toBe('approve');
    const short = spend.gate.decide(buy('1234.57'));
    expect(short.kind === 'deny' && short.reason).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'needs 1234.57 USD, 1234.56 available',
      details: { asset: 'USD', required: '1234.57', available: '1234.56' },
    });
    // a sell of exactly the holding, and one satoshi more
    const sell = setup({}, { USD: '0', BTC: '0.12345678' });
    expect(codeOf(sell.gate, limitBuy({ side: 'SELL', baseAmount: '0.12345678' }))).toBe('approve');
    const more = sell.gate.decide(limitBuy({ side: 'SELL', baseAmount: '0.12345679' }));
    expect(more.kind === 'deny' && more.reason.details).toEqual({ asset: 'BTC', required: '0.12345679', available: '0.12345678' });
  });

  it("values a market sell at the mid's shortest decimal, as a Decimal made from the number would", () => {
    // 0.1 + 0.2 is 0.30000000000000004 to the last digit: 10 BTC at that mid are worth 3.0000000000000004
    const mid = 0.1 + 0.2;
    const sellAt = (min: string) => {
      const s = setup({ min_order_notional: min }, { USD: '0', BTC: '10' });
      s.store.apply({
        kind: 'book',
        market: 'BTCUSD',
        at: s.clock.now(),
        bids: [{ price: mid, amount: 5 }],
        asks: [{ price: mid, amount: 5 }],
      });
      return s.gate.decide({
        kind: 'place-order',
        intentId: `s-${++seq}`,
        strategy: 's',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '10',
      });
    };
    expect(sellAt('3.0000000000000004').kind).toBe('approve');
    const below = sellAt('3.0000000000000005');
    expect(below.kind === 'deny' && below.reason).toEqual({
      code: 'MINIMUM',
      message: 'notional 3.00 USD is below the minimum 3.0000000000000005',
      details: { notional: '3.00', min_notional: '3.0000000000000005', asset: 'USD' },
    });
  });

  it('holds a buy to the position cap at its exact edge', () => {
    const s = setup({ max_position: { BTC: '1.00000001' } }, { USD: '1000', BTC: '0.00000001' });
    expect(codeOf(s.gate, limitBuy({ baseAmount: '1' }))).toBe('approve');
    const d = s.gate.decide(limitBuy({ baseAmount: '1.00000001' }));
    expect(d.kind === 'deny' && d.reason).toEqual({
      code: 'MAX_POSITION',
      message: 'holding of BTC would be 1.00000002 (limit 1.00000001)',
      details: { asset: 'BTC', position_after: '1.00000002', max_position: '1.00000001' },
    });
  });

  it('denies STALE_DATA when market data is old', () => {
    const s = setup({ stale_after_ms: 1000 });
    s.clock.advance(1001);
    expect(codeOf(s.gate, limitBuy())).toBe('STALE_DATA');
  });

  it('denies execute-quote when the quote has expired or has too little time left', () => {
    const s = setup({ min_quote_time_left_ms: 2000 });
    const intent: Intent = { kind: 'execute-quote', intentId: 'q', strategy: 's', market: 'BTCUSD', side: 'BUY', quoteAmount: '100' };
    expect(codeOf(s.gate, intent)).toBe('QUOTE_EXPIRED');
    s.store.apply({
      kind: 'quote',
      market: 'BTCUSD',
      at: s.clock.now(),
      quoteId: 'q1',
      side: 'BUY',
      price: '101',
      expiresAt: s.clock.now() + 1500,
    });
    expect(codeOf(s.gate, { ...intent, intentId: 'q2' })).toBe('QUOTE_EXPIRED');
    s.store.apply({
      kind: 'quote',
      market: 'BTCUSD',
      at: s.clock.now(),
      quoteId: 'q3',
      side: 'BUY',
      price: '101',
      expiresAt: s.clock.now() + 30_000,
    });
    expect(codeOf(s.gate, { ...intent, intentId: 'q4' })).toBe('approve');
    expect(codeOf(s.gate, { ...intent, intentId: 'q5', limitPrice: '100.5' })).toBe('PRICE_BAND');
  });

  it('denies a transfer over the remaining transfer limit', () => {
    const s = setup();
    s.remaining.USD = new D('100');
    const t: Intent = { kind: 'transfer', intentId: 't', strategy: 's', asset: 'USD', amount: '150', fromProfileId: 'a', toProfileId: 'b' };
    expect(codeOf(s.gate, t)).toBe('TRANSFER_LIMIT');
    expect(codeOf(s.gate, { ...t, intentId: 't2', amount: '50' })).toBe('approve');
  });

  it('halts new intents once the kill switch trips, but still allows cancels', () => {
    const s = setup({ daily_loss_limit: '100' });
    expect(s.gate.killSwitch.observe(new D('10000'), s.clock.now())).toBeUndefined();
    expect(s.gate.killSwitch.observe(new D('9850'), s.clock.now())).toMatch(/daily loss 150.00 exceeds 100/);
    expect(codeOf(s.gate, limitBuy())).toBe('HALTED');
    expect(codeOf(s.gate, { kind: 'cancel-order', intentId: 'c', strategy: 's', orderRefId: 'x' })).toBe('approve');
  });

  it('while halted still approves a sell that reduces the position, and checks it like any order', () => {
    const s = setup({ daily_loss_limit: '100' });
    s.gate.killSwitch.trip('operator');
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '0.5' }))).toBe('approve');
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', type: 'MARKET', price: undefined, baseAmount: '1' }))).toBe('approve');
    // the balance and precision checks still hold a reducing order
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '2' }))).toBe('INSUFFICIENT_BALANCE');
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '0.5', price: '100.1' }))).toBe('PRECISION');
    expect(codeOf(s.gate, limitBuy())).toBe('HALTED');
    const transfer: Intent = {
      kind: 'transfer',
      intentId: 'tr',
      strategy: 's',
      asset: 'USD',
      amount: '1',
      fromProfileId: 'a',
      toProfileId: 'b',
    };
    expect(codeOf(s.gate, transfer)).toBe('HALTED');
  });

  it('denies even a reducing sell when halted without allowReducing (ids that can no longer be trusted)', () => {
    const s = setup();
    s.gate.killSwitch.trip('ref_id conflict', { allowReducing: false });
    expect(codeOf(s.gate, limitBuy({ side: 'SELL', baseAmount: '0.5' }))).toBe('HALTED');
    expect(codeOf(s.gate, { kind: 'cancel-order', intentId: 'c2', strategy: 's', orderRefId: 'x' })).toBe('approve');
  });

  it('trips on drawdown from the peak', () => {
    const s = setup({ max_drawdown_pct: 10 });
    s.gate.killSwitch.observe(new D('1000'), 0);
    s.gate.killSwitch.observe(new D('2000'), 1);
    expect(s.gate.killSwitch.observe(new D('1700'), 2)).toMatch(/drawdown 15.00% exceeds 10%/);
  });

  it('counts decisions per outcome', () => {
    const s = setup();
    s.gate.decide(limitBuy());
    s.gate.decide(limitBuy({ market: 'DOGEUSD' }));
    expect(s.gate.stats()).toEqual({ approve: 1, MARKET_NOT_ALLOWED: 1 });
    s.gate.decide(limitBuy());
    expect(s.gate.stats()).toEqual({ approve: 2, MARKET_NOT_ALLOWED: 1 });
    // codes in the order they first came, approvals among them
    const d = setup();
    d.gate.decide(limitBuy({ market: 'DOGEUSD' }));
    d.gate.decide(limitBuy());
    d.gate.decide(limitBuy({ price: '1000' }));
    expect(Object.entries(d.gate.stats())).toEqual([
      ['MARKET_NOT_ALLOWED', 1],
      ['approve', 1],
      ['PRICE_BAND', 1],
    ]);
  });

  it('checks ticks against the platform instrument table when the view does not know the instrument', () => {
    const { gate, store, clock } = setup({}, { USD: '100000', ETH: '10' });
    store.apply({
      kind: 'book',
      market: 'ETHUSD',
      at: clock.now(),
      bids: [{ price: 3000, amount: 5 }],
      asks: [{ price: 3001, amount: 5 }],
    });
    const d = gate.decide(limitBuy({ market: 'ETHUSD', price: '3000.005' }));
    expect(d.kind === 'deny' && d.reason).toMatchObject({
      code: 'PRECISION',
      message: 'price: 3000.005 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
      details: { field: 'price', tick: '0.01' },
    });
    expect(codeOf(gate, limitBuy({ market: 'ETHUSD', price: '3000.01' }))).toBe('approve');
  });

  it('denies what the platform refuses by its order rules, naming the intent field', () => {
    const { gate } = setup();
    const tif = gate.decide({
      kind: 'place-order',
      intentId: 'g',
      strategy: 's',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'MARKET',
      quoteAmount: '10.00',
      timeInForce: 'GTC',
    });
    expect(tif.kind === 'deny' && tif.reason).toMatchObject({
      code: 'INVALID_INTENT',
      details: { field: 'timeInForce' },
      message: 'timeInForce: "GTC" is not valid for MARKET orders: use one of IOC',
    });
    expect(codeOf(gate, limitBuy({ timeInForce: 'GTT' }))).toBe('INVALID_INTENT');
    expect(codeOf(gate, limitBuy({ timeInForce: 'GTT', expiresAt: 1_100_000 }))).toBe('approve');
    expect(codeOf(gate, limitBuy({ type: 'STOP_LIMIT', side: 'SELL', stopPrice: '100.3' }))).toBe('PRECISION');
  });

  it("denies an order over the platform's notional cap as MAX_NOTIONAL, before the user's own limits", () => {
    const { gate } = setup({ max_order_notional: '10000000' }, { USD: '10000000', BTC: '100' });
    const market = gate.decide({
      kind: 'place-order',
      intentId: 'c',
      strategy: 's',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'MARKET',
      quoteAmount: '500000.01',
    });
    expect(market.kind === 'deny' && market.reason).toMatchObject({
      code: 'MAX_NOTIONAL',
      details: { field: 'quoteAmount', order_notional_value: '500000.01', max_notional_value: '500000' },
    });
    // a MARKET sell is valued at the mid (100): 5001 BTC is 500,100 USD
    expect(
      codeOf(gate, {
        kind: 'place-order',
        intentId: 'd',
        strategy: 's',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '5001',
      }),
    ).toBe('MAX_NOTIONAL');
  });

  it('denies a base amount outside the instrument size limits as MINIMUM or MAX_NOTIONAL', () => {
    const clock = new TestClock(1_000_000);
    const store = new MarketStore(clock);
    store.apply({ kind: 'book', market: 'BTCUSD', at: clock.now(), bids: [{ price: 99, amount: 5 }], asks: [{ price: 101, amount: 5 }] });
    const sized = { ...instrumentOf({ market: 'BTCUSD', tickRate: '0.01' }), minBaseAmount: new D('0.5'), maxBaseAmount: new D('2') };
    const view: RiskView = {
      now: () => clock.now(),
      market: (m) => store.snapshot(m),
      available: () => new D('10000'),
      total: () => new D('10000'),
      openOrderCount: () => 0,
      instrument: () => sized,
      transferRemaining: () => undefined,
    };
    const gate = new RiskGate(RiskLimitsSchema.parse({}), view);
    expect(codeOf(gate, limitBuy({ baseAmount: '0.1' }))).toBe('MINIMUM');
    expect(codeOf(gate, limitBuy({ baseAmount: '3' }))).toBe('MAX_NOTIONAL');
    expect(codeOf(gate, limitBuy({ baseAmount: '1' }))).toBe('approve');
  });

  it('checks stop and market order shapes', () => {
    const { gate } = setup();
    expect(codeOf(gate, limitBuy({ type: 'STOP_MARKET', stopPrice: '90' }))).toBe('INVALID_INTENT');
    expect(
      codeOf(gate, { kind: 'place-order', intentId: 'x', strategy: 's', market: 'BTCUSD', side: 'BUY', type: 'MARKET', baseAmount: '1' }),
    ).toBe('INVALID_INTENT');
  });
});

describe('RiskGate: a strategy paused by an operator', () => {
  it("denies its new intents PAUSED, naming it; lets its cancels and an operator's exit through; other strategies trade", () => {
    const { gate } = setup();
    expect(gate.pauses.pause({ strategy: 's', since: 5, reason: 'paused by an operator: news' })).toBe(true);
    expect(gate.pauses.pause({ strategy: 's', since: 9, reason: 'again' })).toBe(false);
    const d = gate.decide(limitBuy());
    expect(d.kind === 'deny' && d.reason).toMatchObject({
      code: 'PAUSED',
      message: expect.stringMatching(/^s is paused by an operator \(paused by an operator: news\)/),
      details: { strategy: 's', since: 5 },
    });
    expect(codeOf(gate, limitBuy({ side: 'SELL', baseAmount: '0.5', exitReason: 'stop-loss' }))).toBe('PAUSED');
    expect(codeOf(gate, limitBuy({ side: 'SELL', baseAmount: '0.5', type: 'MARKET', price: undefined, exitReason: 'operator' }))).toBe(
      'approve',
    );
    expect(codeOf(gate, { kind: 'cancel-order', intentId: 'c-1', strategy: 's', orderRefId: 'i-1' })).toBe('approve');
    expect(codeOf(gate, limitBuy({ strategy: 'other' }))).toBe('approve');
    expect(gate.pauses.resume('s')).toMatchObject({ strategy: 's', since: 5 });
    expect(codeOf(gate, limitBuy())).toBe('approve');
    expect(gate.pauses.resume('s')).toBeUndefined();
  });
});

describe("RiskGate: a position helper's exit level", () => {
  const sell = (over: Partial<Extract<Intent, { kind: 'place-order' }>>) =>
    limitBuy({ side: 'SELL', type: 'MARKET', price: undefined, baseAmount: '0.5', ...over });
  const reasonOf = (gate: RiskGate, intent: Intent) => {
    const d = gate.decide(intent);
    return d.kind === 'approve' ? 'approve' : { code: d.reason.code, field: d.reason.details?.field, message: d.reason.message };
  };

  it('approves a MARKET sell whose exitLevel is a decimal and whose exitReason is the rule that reached it', () => {
    const { gate } = setup();
    expect(codeOf(gate, sell({ exitReason: 'stop-loss', exitLevel: '95.5' }))).toBe('approve');
    expect(codeOf(gate, sell({ exitReason: 'take-profit', exitLevel: '105' }))).toBe('approve');
  });

  it('denies an exitLevel that is not a positive decimal, on another order, or without its rule, naming the field', () => {
    const { gate } = setup();
    expect(reasonOf(gate, sell({ exitReason: 'stop-loss', exitLevel: '9e1' }))).toMatchObject({
      code: 'INVALID_INTENT',
      field: 'exitLevel',
    });
    expect(reasonOf(gate, sell({ exitReason: 'stop-loss', exitLevel: '0' }))).toMatchObject({ code: 'INVALID_INTENT', field: 'exitLevel' });
    expect(reasonOf(gate, limitBuy({ exitReason: 'stop-loss', exitLevel: '95' }))).toMatchObject({
      code: 'INVALID_INTENT',
      field: 'exitLevel',
      message: expect.stringContaining('goes with a MARKET sell'),
    });
    expect(reasonOf(gate, sell({ exitReason: 'signal', exitLevel: '95' }))).toMatchObject({ code: 'INVALID_INTENT', field: 'exitReason' });
    expect(reasonOf(gate, sell({ exitLevel: '95' }))).toMatchObject({ code: 'INVALID_INTENT', field: 'exitReason' });
  });
});
