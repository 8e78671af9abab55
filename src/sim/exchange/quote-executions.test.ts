import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { D } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { SimError } from '../errors.js';
import { SimPlatform } from '../sim.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

function newSim(): { sim: SimPlatform; clock: TestClock } {
  const clock = new TestClock(T0);
  return { sim: new SimPlatform({ clock, seed: 3, funding: { USD: '10000' } }), clock };
}

function quoteOf(sim: SimPlatform, side: 'BUY' | 'SELL', market = 'BTCUSD') {
  return sim.listQuotes([market]).find((q) => q.side === side)!;
}

describe('held-rate quotes', () => {
  it('issues one BUY above and one SELL below mid per market, valid 30 s, the same pair within a second', () => {
    const { sim, clock } = newSim();
    const first = sim.listQuotes(['BTCUSD', 'ETHUSD']);
    expect(first.map((q) => `${q.market}:${q.side}`)).toEqual(['BTCUSD:BUY', 'BTCUSD:SELL', 'ETHUSD:BUY', 'ETHUSD:SELL']);
    const mid = sim.mid('BTCUSD');
    const [buy, sell] = first;
    expect(buy!.price.toNumber()).toBeGreaterThan(mid);
    expect(sell!.price.toNumber()).toBeLessThan(mid);
    expect(buy!.price.minus(sell!.price).div(mid).toNumber()).toBeCloseTo(0.002, 3);
    expect(buy!.expiresAt - buy!.createdAt).toBe(30_000);
    clock.advance(400);
    expect(sim.listQuotes(['BTCUSD']).map((q) => q.id)).toEqual([buy!.id, sell!.id]);
    clock.advance(600);
    expect(sim.listQuotes(['BTCUSD']).map((q) => q.id)).not.toContain(buy!.id);
    expect(() => sim.listQuotes(['SOLEUR'])).toThrow(InputError);
  });
});

describe('quote executions', () => {
  it('executes a BUY by quote amount: CREATED with USD locked, then SETTLED with BTC credited', () => {
    const { sim, clock } = newSim();
    const q = quoteOf(sim, 'BUY');
    const x = sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '100.00', refId: 'qe-1', metadata: { user: 'u-1' } });
    expect(x.status).toBe('CREATED');
    expect(x.baseAmount.toFixed()).toBe(new D(100).div(q.price).toDecimalPlaces(8, D.ROUND_DOWN).toFixed());
    expect(sim.accounts.balance('default', 'USD')).toMatchObject({ available: new D(9900), trading: new D(100) });
    clock.advance(1000);
    expect(sim.getQuoteExecution('default', x.id).status).toBe('SETTLED');
    expect(x.settledAt).toBe(T0 + 1000);
    expect(sim.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('9900');
    expect(sim.accounts.balance('default', 'BTC').available.toFixed()).toBe(x.baseAmount.toFixed());
  });

  it('executes a SELL by base amount into a recipient profile, rounding the fiat amount down', () => {
    const { sim, clock } = newSim();
    sim.deposit({ profileId: 'default', asset: 'BTC', amount: '1', cryptoNetwork: 'BITCOIN' });
    const other = sim.profiles.create('proceeds', undefined, sim.now());
    const q = quoteOf(sim, 'SELL');
    const x = sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.12345678', recipientProfileId: other.id });
    expect(x.quoteAmount.toFixed()).toBe(new D('0.12345678').times(q.price).toDecimalPlaces(2, D.ROUND_DOWN).toFixed());
    clock.advance(1000);
    sim.now();
    expect(sim.accounts.balance(other.id, 'USD').available.toFixed()).toBe(x.quoteAmount.toFixed());
    expect(sim.accounts.balance('default', 'BTC').available.toFixed()).toBe('0.87654322');
  });

  it('refuses an expired quote with 403 expired and the expiry time', () => {
    const { sim, clock } = newSim();
    const q = quoteOf(sim, 'BUY');
    clock.advance(30_001);
    const err = catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10' }));
    expect(err.kind).toBe('expired');
    expect(err.meta).toEqual({ expired_at: new Date(q.expiresAt).toISOString() });
  });

  it('refuses an unknown quote, missing funds, and a reused ref_id with the existing record', () => {
    const { sim } = newSim();
    const q = quoteOf(sim, 'BUY');
    expect(catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: 'nope', quoteAmount: '10' })).kind).toBe('not-found');
    const poor = catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10000.01' }));
    expect(poor.kind).toBe('insufficient-funds');
    expect(poor.meta).toMatchObject({ asset: 'USD', available: '10000', needed: '10000.01' });
    const first = sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10', refId: 'same' });
    const dup = catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10', refId: 'same' }));
    expect(dup.kind).toBe('already-exists');
    expect(dup.existing).toEqual({ kind: 'quote-execution', id: first.id });
    expect(sim.quoteExecutions()).toHaveLength(1);
  });

  it('demands exactly one amount with the documented precision', () => {
    const { sim } = newSim();
    const q = quoteOf(sim, 'BUY');
    expect(() => sim.executeQuote({ profileId: 'default', quoteId: q.id })).toThrow(/exactly one of base_amount/);
    expect(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.1', quoteAmount: '10' })).toThrow(/exactly one/);
    expect(catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10.001' })).kind).toBe('exceed-precision');
    expect(catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.000000001' })).kind).toBe(
      'exceed-precision',
    );
  });

  it("lists a profile's executions newest first with side, market, status and time filters", () => {
    const { sim, clock } = newSim();
    const a = sim.executeQuote({ profileId: 'default', quoteId: quoteOf(sim, 'BUY').id, quoteAmount: '10' });
    clock.advance(2000);
    const b = sim.executeQuote({ profileId: 'default', quoteId: quoteOf(sim, 'BUY', 'ETHUSD').id, quoteAmount: '10' });
    expect(sim.listQuoteExecutions({ profileId: 'default' }).map((x) => x.id)).toEqual([b.id, a.id]);
    expect(sim.listQuoteExecutions({ profileId: 'default', market: 'ETHUSD' }).map((x) => x.id)).toEqual([b.id]);
    expect(sim.listQuoteExecutions({ profileId: 'default', status: 'SETTLED' }).map((x) => x.id)).toEqual([a.id]);
    expect(sim.listQuoteExecutions({ profileId: 'default', side: 'SELL' })).toEqual([]);
    expect(sim.listQuoteExecutions({ profileId: 'default', beginMs: T0 + 1 }).map((x) => x.id)).toEqual([b.id]);
  });
});

/**
 * BTCUSD at 60000 until +10 s, then `within` from +11 s to +20 s, then `beyond` from +21 s: a quote
 * made at T0 is executed at +15 s (a move just within 5 %) and at +25 s (a move just beyond it).
 */
function movingSim(within: number, beyond: number): { sim: SimPlatform; clock: TestClock } {
  const clock = new TestClock(T0);
  const series = {
    source: 'test-move',
    length: 6,
    times: new Float64Array([0, 10_000, 11_000, 20_000, 21_000, 7_200_000]),
    prices: new Float64Array([60_000, 60_000, within, within, beyond, beyond]),
  };
  const sim = new SimPlatform({ clock, seed: 3, funding: { USD: '10000' }, replay: { BTCUSD: { series } } });
  sim.deposit({ profileId: 'default', asset: 'BTC', amount: '1', cryptoNetwork: 'BITCOIN' });
  return { sim, clock };
}

describe('quote executions after the market moved (rejectMove, default 5 %)', () => {
  it('settles a BUY when mid rose 4.998 % since the quote, refuses it with 403 rejected at 5.002 % and moves no balance', () => {
    const { sim, clock } = movingSim(62_999, 63_001);
    const q = quoteOf(sim, 'BUY');
    expect(q.mid).toBe(60_000);
    clock.advance(15_000);
    const ok = sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '100.00' });
    clock.advance(1000);
    expect(sim.getQuoteExecution('default', ok.id).status).toBe('SETTLED');
    const usd = sim.accounts.balance('default', 'USD');
    const btc = sim.accounts.balance('default', 'BTC');
    expect([usd.available.toFixed(), usd.trading.toFixed()]).toEqual(['9900', '0']);
    clock.advance(9_000);
    const err = catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '100.00', refId: 'late' }));
    expect(err.kind).toBe('rejected');
    expect(err.message).toMatch(/BTCUSD market moved 5\.00 % since quote/);
    expect(sim.accounts.balance('default', 'USD')).toEqual(usd);
    expect(sim.accounts.balance('default', 'BTC')).toEqual(btc);
    expect(sim.quoteExecutions().map((x) => x.id)).toEqual([ok.id]);
    expect(sim.listQuoteExecutions({ profileId: 'default' }).map((x) => x.id)).toEqual([ok.id]);
  });

  it('treats a fall like a rise: a SELL settles after −4.998 % and is rejected after −5.002 %', () => {
    const { sim, clock } = movingSim(57_001, 56_999);
    const q = quoteOf(sim, 'SELL');
    clock.advance(15_000);
    const ok = sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.1' });
    clock.advance(1000);
    expect(sim.getQuoteExecution('default', ok.id).status).toBe('SETTLED');
    expect(sim.accounts.balance('default', 'BTC').available.toFixed()).toBe('0.9');
    clock.advance(9_000);
    const err = catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.1' }));
    expect(err.kind).toBe('rejected');
    expect(sim.accounts.balance('default', 'BTC')).toMatchObject({ available: new D('0.9'), trading: new D(0) });
  });

  it('takes the limit from the quote settings', () => {
    const clock = new TestClock(T0);
    const series = {
      source: 'test-move',
      length: 3,
      times: new Float64Array([0, 1_000, 7_200_000]),
      prices: new Float64Array([60_000, 60_700, 60_700]),
    };
    const sim = new SimPlatform({
      clock,
      seed: 3,
      funding: { USD: '10000' },
      replay: { BTCUSD: { series } },
      quotes: { rejectMove: 0.01 },
    });
    const q = quoteOf(sim, 'BUY');
    clock.advance(2_000);
    expect(catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, quoteAmount: '10' })).kind).toBe('rejected');
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('10000');
  });
});

function catchSim(fn: () => unknown): SimError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error('expected a SimError');
}
