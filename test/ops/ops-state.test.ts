/**
 * What the API and dashboard show of positions and P&L: per strategy from the journal's fills (the
 * same rules as tradeloop positions), valued at the market's mid, in decimals; shown at the asset's
 * precision and the tick; read again from the journal only after a fill.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import type { StrategyFill } from '../../src/exec/index.js';
import { OpsState, type OpsRun } from '../../src/ops/index.js';
import { emptySnapshot } from '../../src/state/index.js';
import { stubRun } from './stub-run.js';

const fill = (strategy: string, side: 'BUY' | 'SELL', amount: string, price: string, at: number): StrategyFill => ({
  strategy,
  refId: `${strategy}-${at}`,
  market: 'BTCUSD',
  side,
  amount,
  price,
  commission: '0',
  commissionAsset: 'USD',
  at,
});

function runWith(fills: StrategyFill[], mid: number): { run: OpsRun; reads: () => number; stub: ReturnType<typeof stubRun> } {
  const stub = stubRun(new TestClock(0), ['alpha', 'beta']);
  let reads = 0;
  const snapshot = {
    ...emptySnapshot('BTCUSD'),
    bestBid: { value: { price: mid - 0.5, amount: 1 }, at: 0 },
    bestAsk: { value: { price: mid + 0.5, amount: 1 }, at: 0 },
  };
  const run: OpsRun = {
    ...stub.run,
    kernel: {
      ...stub.run.kernel,
      market: { snapshot: () => snapshot, markets: () => ['BTCUSD'] },
      riskView: {
        instrument: () => ({ priceDecimals: 2 }),
        transferRemaining: () => undefined,
        transferLimits: { lastReadAt: undefined, readings: () => [] },
      },
    } as unknown as OpsRun['kernel'],
    journal: { ...stub.run.journal, strategyFills: () => (reads++, fills) },
  };
  return { run, reads: () => reads, stub };
}

describe('positions and P&L for the dashboard', () => {
  it("values each strategy's position at the mid: realized plus unrealized, in decimals", () => {
    const { run } = runWith(
      [
        fill('alpha', 'BUY', '0.002', '50000', 1), // cost 100
        fill('alpha', 'SELL', '0.001', '55000', 2), // realized 5, 0.001 left at cost 50
        fill('beta', 'BUY', '0.1', '0.1', 3), // a tiny position: cost 0.01
      ],
      60_000,
    );
    const state = new OpsState(run);
    const pnl = state.strategyPnl();
    expect(pnl.alpha).toBe('15'); // 5 realized + (0.001 × 60000 − 50)
    expect(pnl.beta).toBe('5999.99'); // 0.1 × 60000 − 0.01
    const alpha = (state.positions().positions as Record<string, unknown>[]).find((p) => p.strategy === 'alpha');
    expect(alpha).toMatchObject({
      position: '0.001',
      positionShown: '0.00100000',
      unrealizedPnl: '10',
      pnl: '15',
      pnlShown: '15.00',
      midShown: '60000.00',
      averageCostShown: '50000.00',
    });
  });

  it("reads the journal's fills again only after a fill", () => {
    const { run, reads, stub } = runWith([fill('alpha', 'BUY', '0.001', '50000', 1)], 50_000);
    const state = new OpsState(run);
    const before = reads();
    state.strategyPnl();
    state.positions();
    state.strategies();
    expect(reads()).toBe(before + 1);
    stub.reports.next({
      kind: 'filled',
      refId: 'x',
      orderId: 'o',
      fillId: 'f',
      market: 'BTCUSD',
      side: 'BUY',
      amount: '0.001',
      price: '50000',
      commission: '0',
      commissionAsset: 'USD',
      at: 2,
    });
    state.strategyPnl();
    expect(reads()).toBe(before + 2);
    expect(state.orders().fills).toEqual(
      expect.arrayContaining([expect.objectContaining({ refId: 'x', priceShown: '50000.00', amountShown: '0.00100000' })]),
    );
  });

  it("names each fill's strategy, fee and exit reason (from the journal's intent), and gives daily P&L per strategy", () => {
    const { run, stub } = runWith(
      [fill('alpha', 'BUY', '0.002', '50000', Date.UTC(2026, 0, 5, 10)), fill('alpha', 'SELL', '0.001', '55000', Date.UTC(2026, 0, 5, 11))],
      50_000,
    );
    const row = {
      strategy: 'beta',
      intent: {
        kind: 'place-order',
        intentId: 'x',
        strategy: 'beta',
        market: 'BTCUSD',
        side: 'SELL',
        type: 'MARKET',
        baseAmount: '0.001',
        exitReason: 'stop-loss',
      },
    };
    const state = new OpsState({
      ...run,
      journal: { ...run.journal, get: (ref: string) => (ref === 'x' ? row : undefined) } as unknown as OpsRun['journal'],
    });
    stub.reports.next({
      kind: 'filled',
      refId: 'x',
      orderId: 'o',
      fillId: 'f',
      market: 'BTCUSD',
      side: 'SELL',
      amount: '0.001',
      price: '50000',
      commission: '0.05',
      commissionAsset: 'USD',
      at: 2,
    });
    expect((state.orders().fills as Record<string, unknown>[])[0]).toMatchObject({
      refId: 'x',
      strategy: 'beta',
      exitReason: 'stop-loss',
      commission: '0.05',
      feeShown: '0.05 USD',
    });
    expect(state.daily()).toEqual({ days: [{ date: '2026-01-05', strategy: 'alpha', quote: 'USD', realized: '5', fees: '0', trades: 2 }] });
  });
});
