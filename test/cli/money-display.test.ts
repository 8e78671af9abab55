/**
 * Issue 21 item 2: money people read shows at its asset's precision (USD 2, BTC 8) and prices at the
 * market's tick, in the live panel, the run summary and the backtest report, however many digits
 * the computation carried; --json and CSV keep them all. Every amount in the rendered text is
 * checked against the precision of the asset it is in.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatMetricRows, writeBacktestReport } from '../../backtest/report/report.js';
import { computeMetrics, type RoundTrip } from '../../backtest/metrics.js';
import { renderPanel, renderSummary } from '../../src/cli/panel.js';
import { shownDecimals } from '../../src/core/index.js';
import type { RunSummary, RunView } from '../../src/live/run-view.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-money-display-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The decimals of every number in `text` that `pattern` captures (group 1). */
function decimalsOf(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((m) => shownDecimals(m[1]!));
}

const view: RunView = {
  at: 65_000,
  startedAt: 0,
  environment: 'local',
  venue: 'rest',
  markets: [
    { market: 'BTCUSD', mid: 33298.01542458, stale: false, priceDecimals: 2 },
    { market: 'ETHUSD', mid: 3100.123456789, stale: false },
  ],
  balances: [
    { asset: 'USD', available: '80000.0004151604257', trading: '12.123456789' },
    { asset: 'BTC', available: '0.123456789123', trading: '0' },
  ],
  equityAsset: 'USD',
  equity: '100012.0004151604257',
  startEquity: '100000.99999999',
  pnl: '11.0004151604257',
  openOrders: [{ refId: 'tl-3', market: 'BTCUSD', side: 'BUY', price: '33000.5', amount: '0.1', status: 'OPEN' }],
  decisions: [],
  reports: [
    { kind: 'accepted', refId: 'tl-3', orderId: 'o-3', at: 60_000 },
    {
      kind: 'filled',
      refId: 'tl-3',
      orderId: 'o-3',
      fillId: 'f-1',
      market: 'BTCUSD',
      side: 'BUY',
      amount: '0.123456789123',
      price: '33298.01542458',
      commission: '4.1106173',
      commissionAsset: 'USD',
      at: 61_000,
    },
  ],
  counters: {},
  stoppedStrategies: [],
};

const summary: RunSummary = {
  durationMs: 240_000,
  intents: 3,
  approved: 3,
  denied: 0,
  denials: {},
  ordersPlaced: 2,
  fills: 2,
  fees: '2061.7459188883386',
  equityAsset: 'USD',
  startEquity: '100000.00000001',
  endEquity: '99990.0004151604257',
  pnl: '-9.9995848395743',
  openOrdersLeft: 0,
  unresolved: 0,
  stoppedStrategies: [],
  positions: [
    { asset: 'BTC', amount: '0.123456789123', market: 'BTCUSD', mid: '33298.01542458', priceDecimals: 2, value: '4110.86062311' },
  ],
};

describe('money at its asset precision', () => {
  it('in the live panel: balances, equity, PnL, mids and fills', () => {
    const text = renderPanel(view);
    expect(text).toMatch(/^USD\s+80000\.00\s+12\.12$/m);
    expect(text).toMatch(/^BTC\s+0\.12345679\s+0\.00000000$/m);
    expect(text).toMatch(/equity 100012\.00 USD {3}start 100001\.00 USD {3}PnL 11\.00 USD/);
    expect(text).toMatch(/^BTCUSD\s+33298\.02\s+fresh$/m);
    expect(text).toMatch(/filled BUY 0\.12345679 @ 33298\.02/);
    // every USD amount and price at 2 decimals, every BTC amount at 8, and no number with more than 8
    expect(decimalsOf(text, /(\d+\.\d+) USD/g).every((d) => d === 2)).toBe(true);
    expect(decimalsOf(text, /@ (\d+\.\d+)/g)).toEqual([2]);
    expect(decimalsOf(text, /(\d+\.\d+)/g).every((d) => d <= 8)).toBe(true);
  });

  it("lists an order's accepted line before its filled line (newest first, so below it)", () => {
    const text = renderPanel(view);
    expect(text.indexOf('filled BUY')).toBeLessThan(text.indexOf('accepted'));
  });

  it('in the run summary: fees, equity, PnL and the positions still held', () => {
    const text = renderSummary(summary);
    expect(text).toMatch(/fees\s+2061\.75 USD/);
    expect(text).toMatch(/equity\s+100000\.00 → 99990\.00 USD/);
    expect(text).toMatch(/PnL\s+-10\.00 USD/);
    expect(text).toMatch(/position held\s+0\.12345679 BTC at 33298\.02 = 4110\.86 USD/);
    expect(decimalsOf(text, /(\d+\.\d+) USD/g).every((d) => d === 2)).toBe(true);
    expect(decimalsOf(text, /(\d+\.\d+) BTC/g)).toEqual([8]);
    expect(decimalsOf(text, /(\d+\.\d+)/g).every((d) => d <= 8)).toBe(true);
    expect(renderSummary({ ...summary, positions: [] })).toMatch(/positions held\s+none \(all in USD\)/);
  });

  it('in the backtest report: metrics and the trades table; trades.csv keeps every digit', () => {
    const times = Float64Array.from([0, 1, 2, 3].map((i) => Date.UTC(2024, 0, 1) + i * 3_600_000));
    const prices = Float64Array.from([100.123456, 101.98765, 99.5, 103.333333]);
    const equity = Float64Array.from([10000, 10012.00041516, 9990.123456789, 10031.98765432]);
    const trade: RoundTrip = {
      market: 'BTCUSD',
      side: 'long',
      entryAt: times[1]!,
      exitAt: times[3]!,
      quantity: '97.916666666666',
      entryPrice: '101.98765432109',
      exitPrice: '103.33333333',
      pnl: '31.98765432098765',
      fees: '20.0004151604257',
    };
    const metrics = computeMetrics({ times, equity, prices, trades: [trade], feesPaid: '20.0004151604257' });
    const rows = formatMetricRows(metrics, { quote: 'USD' });
    expect(Object.fromEntries(rows)['Final equity']).toBe('10031.99');
    expect(Object.fromEntries(rows)['Fees paid']).toBe('20.00');
    const files = writeBacktestReport(
      dir,
      {
        strategy: 's',
        market: 'BTCUSD',
        times,
        prices,
        equity,
        trades: [trade],
        metrics,
        assumptions: { initial: 'USD=10000', feeBps: 10, slippageBps: 0, fillRule: 'next point' },
        units: { base: 'BTC', quote: 'USD', priceDecimals: 2 },
      },
      { js: '', css: '' },
    );
    const html = readFileSync(files.html, 'utf8');
    expect(html).toContain('<td>97.91666667</td><td>101.99</td><td>103.33</td><td>31.99</td><td>20.00</td>');
    expect(html).toMatch(/Final equity<\/th><td>10031\.99</);
    expect(html).toMatch(/Fees paid<\/th><td>20\.00</);
    expect(readFileSync(files.trades, 'utf8')).toContain('97.916666666666,101.98765432109,103.33333333,31.98765432098765,20.0004151604257');
  });
});
