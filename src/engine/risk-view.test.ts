import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import type { Intent } from '../core/index.js';
import { AccountStore, MarketStore, balanceFromWire } from '../state/index.js';
import { EngineRiskView } from './risk-view.js';

const T0 = Date.UTC(2025, 0, 1);

function view() {
  const clock = new TestClock(T0);
  const account = new AccountStore(clock);
  const market = new MarketStore(clock);
  market.apply({ kind: 'price', market: 'BTCUSD', at: T0, price: 100 });
  const v = new EngineRiskView(clock, market, account, 10, { count: () => 0 });
  const balances = (usd: string, btc: string): void => account.apply({ kind: 'balances', at: clock.now(), items: [balanceFromWire('USD', usd, '0'), balanceFromWire('BTC', btc, '0')] });
  return { clock, v, balances };
}

const buy = (id: string, quoteAmount: string): Intent => ({ kind: 'place-order', intentId: id, strategy: 's', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount });
const sell = (id: string, baseAmount: string): Intent => ({ kind: 'place-order', intentId: id, strategy: 's', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount });

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

  it('keeps the sum of many unconfirmed reservations as they come and go', () => {
    const { v, balances } = view();
    balances('1000000', '0');
    for (let i = 0; i < 20_000; i++) v.reserve(buy(`o${i}`, '1.25'));
    expect(v.available('USD').toFixed()).toBe(String(1_000_000 - 20_000 * 1.25));
    for (let i = 0; i < 20_000; i += 2) v.release(`o${i}`, 0, true);
    expect(v.available('USD').toFixed()).toBe(String(1_000_000 - 10_000 * 1.25));
  });
});
