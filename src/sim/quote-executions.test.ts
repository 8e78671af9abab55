import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/test-clock.js';
import { D } from '../core/decimal.js';
import { InputError } from '../core/errors.js';
import { SimError } from './errors.js';
import { SimPlatform } from './sim.js';

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
    expect(catchSim(() => sim.executeQuote({ profileId: 'default', quoteId: q.id, baseAmount: '0.000000001' })).kind).toBe('exceed-precision');
  });

  it('lists a profile\'s executions newest first with side, market, status and time filters', () => {
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

function catchSim(fn: () => unknown): SimError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error('expected a SimError');
}
