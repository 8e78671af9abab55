import { describe, expect, it } from 'vitest';
import { backtestStrategy } from 'tradeloop/testkit';
import smaCross from '../strategies/sma-cross.js';

// flat, a rise (golden cross: buy), a fall (death cross: sell), flat again
const PRICES = [...Array(6).fill(100), 102, 104, 106, 108, 110, 108, 104, 100, 96, 92, ...Array(4).fill(92)];

describe('backtestStrategy (tradeloop/testkit)', () => {
  it('runs a strategy through the whole engine and reports its round trips, orders and balances', async () => {
    const r = await backtestStrategy(smaCross, { params: { fast: 2, slow: 4 }, prices: PRICES });
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]).toMatchObject({ side: 'long' });
    expect(Number(r.trades[0]!.pnl)).toBeLessThan(0);
    expect(r.orders).toMatchObject({ accepted: 2, fills: 2, openAtEnd: 0 });
    expect(r.decisions).toEqual({ approve: 2 });
    expect(r.finalBalances.BTC ?? '0').toMatch(/^0(\.0+)?$/);
    expect(Number(r.feesPaid)).toBeGreaterThan(0);
    expect(r.warnings).toEqual([]);
  });

  it('applies the risk limits given as the config writes them', async () => {
    const r = await backtestStrategy(smaCross, { params: { fast: 2, slow: 4 }, prices: PRICES, risk: { max_order_notional: '500' } });
    expect(r.decisions.MAX_NOTIONAL).toBe(1);
    expect(r.denials.MAX_NOTIONAL?.first.message).toMatch(/500/);
    expect(r.trades).toEqual([]);
  });

  it('refuses bad input naming the field and the fix', async () => {
    await expect(backtestStrategy(smaCross, { prices: [100] })).rejects.toThrow(/prices: 1 point\(s\): give at least 2 prices/);
    await expect(backtestStrategy(smaCross, { prices: [100, Number.NaN] })).rejects.toThrow(
      /prices\[1\] is NaN: every price must be a finite number above 0/,
    );
    await expect(backtestStrategy(smaCross, { prices: { times: [2, 1], prices: [1, 2] } })).rejects.toThrow(/times must increase/);
    await expect(backtestStrategy(smaCross, { prices: PRICES, params: { fast: 5, slow: 3 } })).rejects.toThrow(/fast/);
    await expect(backtestStrategy(smaCross, { prices: PRICES, risk: { max_order_notional: 5 } })).rejects.toThrow(
      /risk\.max_order_notional/,
    );
  });
});
