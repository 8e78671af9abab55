import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/cli/duration.js';
import { renderPanel, renderSummary } from '../../src/cli/panel.js';

describe('parseDuration', () => {
  it('reads units and combinations', () => {
    expect(parseDuration('240s')).toBe(240_000);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
  });

  it('names the flag and the fix for nonsense', () => {
    for (const bad of ['', '10', 'ten minutes', '5x', '0s'])
      expect(() => parseDuration(bad)).toThrow(/--duration: .* use a number with a unit/);
  });
});

describe('panel', () => {
  it('shows prices, balances, PnL, open orders and decisions with reasons', () => {
    const text = renderPanel(
      {
        at: 65_000,
        startedAt: 0,
        environment: 'local',
        venue: 'rest',
        markets: [{ market: 'BTCUSD', mid: 61234.5, stale: false }],
        balances: [{ asset: 'USD', available: '80000', trading: '0' }],
        equity: '100012.00',
        startEquity: '100000.00',
        pnl: '12.00',
        openOrders: [{ refId: 'tl-3', market: 'BTCUSD', side: 'BUY', price: '60000', amount: '0.1', status: 'OPEN' }],
        decisions: [
          {
            kind: 'deny',
            at: 60_000,
            intent: {
              kind: 'place-order',
              intentId: 'tl-2',
              strategy: 'sma-btc',
              market: 'BTCUSD',
              side: 'BUY',
              type: 'MARKET',
              quoteAmount: '20000.00',
            },
            reason: { code: 'MAX_NOTIONAL', message: 'too big', details: {} },
          },
        ],
        reports: [],
        counters: { intents: 2, approved: 1, denied: 1, orders: 1, fills: 1 },
        stoppedStrategies: [],
      },
      '.tradeloop/run.log',
    );
    expect(text).toMatch(/up 1m05s/);
    expect(text).toMatch(/BTCUSD\s+61234.50\s+fresh/);
    expect(text).toMatch(/PnL 12.00/);
    expect(text).toMatch(/tl-3\s+BTCUSD\s+BUY\s+60000/);
    expect(text).toMatch(/denied MAX_NOTIONAL: too big/);
    expect(text).toMatch(/logs in .tradeloop\/run.log/);
  });

  it('summarises a run', () => {
    const text = renderSummary({
      durationMs: 240_000,
      intents: 3,
      approved: 2,
      denied: 1,
      denials: { RATE: 1 },
      ordersPlaced: 2,
      fills: 3,
      fees: '1.2',
      startEquity: '100000.00',
      endEquity: '99990.00',
      pnl: '-10.00',
      openOrdersLeft: 0,
      unresolved: 0,
      stoppedStrategies: [],
    });
    expect(text).toMatch(/denied\s+1 \(RATE 1\)/);
    expect(text).toMatch(/PnL\s+-10.00/);
  });
});
