import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D, type Intent } from '../core/index.js';
import { AccountStore, MarketStore, balanceFromWire } from '../state/index.js';
import { EngineRiskView } from './risk-view.js';

const T0 = Date.UTC(2025, 0, 1);

function view() {
  const clock = new TestClock(T0);
  const account = new AccountStore(clock);
  const market = new MarketStore(clock);
  market.apply({ kind: 'price', market: 'BTCUSD', at: T0, price: 100 });
  const v = new EngineRiskView(clock, market, account, 10, { count: () => 0 });
  const balances = (usd: string, btc: string): void =>
    account.apply({ kind: 'balances', at: clock.now(), items: [balanceFromWire('USD', usd, '0'), balanceFromWire('BTC', btc, '0')] });
  return { clock, v, balances };
}

const buy = (id: string, quoteAmount: string): Intent => ({
  kind: 'place-order',
  intentId: id,
  strategy: 's',
  market: 'BTCUSD',
  side: 'BUY',
  type: 'MARKET',
  quoteAmount,
});
const sell = (id: string, baseAmount: string): Intent => ({
  kind: 'place-order',
  intentId: id,
  strategy: 's',
  market: 'BTCUSD',
  side: 'SELL',
  type: 'MARKET',
  baseAmount,
});

describe('EngineRiskView reservations', () => {
  it('takes every unconfirmed reservation off its own asset, and each only until balances after its release arrive', () => {
    const { clock, v, balances } = view();
    balances('1000', '2');
    v.reserve(buy('a', '100.5'));
    v.reserve(buy('b', '200'));
    v.reserve(sell('c', '0.5'));
    expect([v.available('USD').toFixed(), v.available('BTC').toFixed()]).toEqual(['699.5', '1.5']);
    // the venue took 'a' (its funds are in the venue's balances from the next read on)
    v.release('a', clock.now());
    balances('1000', '2'); // same millisecond: not after the release, 'a' still counts
    expect(v.available('USD').toFixed()).toBe('699.5');
    clock.advance(1);
    balances('899.5', '2');
    expect(v.available('USD').toFixed()).toBe('699.5'); // 'a' now in the balance, not reserved twice
    // refused: released at once
    v.release('b', clock.now(), true);
    expect(v.available('USD').toFixed()).toBe('899.5');
    expect(v.available('BTC').toFixed()).toBe('1.5');
    v.release('c', clock.now(), true);
    expect(v.available('BTC').toFixed()).toBe('2');
  });

  it('keeps the first release of a reservation, drops it at once when refused later, and lets an intent reserved again replace it', () => {
    const { clock, v, balances } = view();
    balances('1000', '2');
    v.reserve(buy('a', '100'));
    v.release('a', clock.now());
    clock.advance(5);
    v.release('a', clock.now()); // a later report: the first release counts
    clock.advance(1);
    balances('1000', '2'); // newer than the first release, older than the second
    expect(v.available('USD').toFixed()).toBe('1000');
    // released, then refused before balances caught up: gone at once, and only once
    v.reserve(buy('b', '50'));
    v.release('b', clock.now());
    v.release('b', clock.now(), true);
    expect(v.available('USD').toFixed()).toBe('1000');
    clock.advance(1);
    balances('1000', '2');
    expect(v.available('USD').toFixed()).toBe('1000');
    // the same intent reserved twice counts once, with its latest amount
    v.reserve(sell('c', '0.5'));
    v.reserve(sell('c', '0.25'));
    expect(v.available('BTC').toFixed()).toBe('1.75');
  });

  it('reserves a buy sized in base at its price (or mid) with the fee, as decimal.js multiplies them', () => {
    const { v, balances } = view();
    balances('1000', '0');
    v.reserve({
      kind: 'place-order',
      intentId: 'l',
      strategy: 's',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      baseAmount: '0.12345678',
      price: '99.75',
    });
    // 99.75 × 0.12345678 × 1.001 (10 bps)
    expect(v.available('USD').toFixed()).toBe(
      new D('1000').minus(new D('99.75').times('0.12345678').times(new D(1 + 10 / 10_000))).toFixed(),
    );
    v.reserve({ kind: 'place-order', intentId: 'm', strategy: 's', market: 'BTCUSD', side: 'BUY', type: 'MARKET', baseAmount: '0.3' });
    // at mid (the store's price of 100)
    expect(v.available('USD').toFixed()).toBe(
      new D('1000').minus(new D('99.75').times('0.12345678').times('1.001')).minus(new D('30.03')).toFixed(),
    );
  });

  it('keeps the sum of many unconfirmed reservations as they come and go', () => {
    const { v, balances } = view();
    balances('1000000', '0');
    for (let i = 0; i < 20_000; i++) v.reserve(buy(`o${i}`, '1.25'));
    expect(v.available('USD').toFixed()).toBe(String(1_000_000 - 20_000 * 1.25));
    for (let i = 0; i < 20_000; i += 2) v.release(`o${i}`, 0, true);
    expect(v.available('USD').toFixed()).toBe(String(1_000_000 - 10_000 * 1.25));
  });
});
