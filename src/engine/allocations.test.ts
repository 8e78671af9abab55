import { describe, expect, it } from 'vitest';
import { D, ZERO, type Dec, type Intent } from '../core/index.js';
import { parseConfig } from '../config/index.js';
import { DEFAULT_RISK_LIMITS, RiskGate } from '../risk/index.js';
import type { RiskView } from '../risk/view.js';
import { Allocations } from './allocations.js';

const M = 'BTCUSD';
const snapshot = { price: { value: 100, at: 5_000 } } as never;

function rig() {
  const cost = new Map<string, Dec>();
  const allocations = new Allocations(
    new Map([
      ['trend', '1000'],
      ['grid', '25%'],
    ]),
    {
      costOf: (s) => cost.get(s) ?? ZERO,
      total: (a) => (a === 'USD' ? new D('10000') : ZERO),
      market: { snapshot: () => snapshot },
    },
  );
  allocations.onBalances(['USD', 'BTC']);
  const view: RiskView = {
    now: () => 5_000,
    market: () => snapshot,
    available: () => new D('100000'),
    total: () => new D('100000'),
    openOrderCount: () => 0,
    instrument: () => undefined,
    transferRemaining: () => undefined,
  };
  const gate = new RiskGate({ ...DEFAULT_RISK_LIMITS, stale_after_ms: 1e12 }, view, undefined, undefined, allocations);
  let n = 0;
  const buy = (strategy: string, quoteAmount: string) => {
    const intent: Intent = { kind: 'place-order', intentId: `b-${++n}`, strategy, market: M, side: 'BUY', type: 'MARKET', quoteAmount };
    const d = gate.decide(intent);
    allocations.onDecision(d);
    return d;
  };
  return { allocations, buy, cost };
}

describe('strategies[].allocation', () => {
  it('denies a buy that takes a strategy past its allocation (ALLOCATION, with the numbers); open buys and positions count', () => {
    const { allocations, buy, cost } = rig();
    const first = buy('trend', '600.00');
    expect(first.kind).toBe('approve');
    // the first buy is still open: 600 + 500 is beyond 1000
    expect(buy('trend', '500.00')).toMatchObject({
      kind: 'deny',
      reason: { code: 'ALLOCATION', details: { strategy: 'trend', asset: 'USD', allocation: '1000', used: '600', required: '500' } },
    });
    // it fills: its spend is now the position's cost
    allocations.onReport({
      kind: 'filled',
      refId: first.intent.intentId,
      orderId: 'o',
      fillId: 'f',
      market: M,
      side: 'BUY',
      amount: '6',
      price: '100',
      commission: '0.6',
      commissionAsset: 'USD',
      at: 6_000,
      orderDone: true,
    });
    cost.set('trend', new D('600.6'));
    expect(allocations.of('trend', 'USD')?.used.toFixed()).toBe('600.6');
    expect(buy('trend', '399.40').kind).toBe('approve');
    // a share is of the balance at start: 25 % of 10000 USD; a strategy without one is held to the balance alone
    expect(buy('grid', '2500.01')).toMatchObject({ reason: { code: 'ALLOCATION', details: { allocation: '2500' } } });
    expect(buy('grid', '2500.00').kind).toBe('approve');
    expect(buy('dca', '9000.00').kind).toBe('approve');
  });

  it('a cancelled buy frees what it held', () => {
    const { allocations, buy } = rig();
    const d = buy('trend', '900.00');
    allocations.onReport({ kind: 'cancelled', refId: d.intent.intentId, orderId: 'o', at: 6_000 });
    expect(allocations.of('trend', 'USD')?.used.toFixed()).toBe('0');
  });

  it('the config takes an amount or a share, and names the field and the fix for anything else', () => {
    expect(
      parseConfig({
        strategies: [
          { plugin: 'sma-cross', allocation: '5000' },
          { plugin: 'grid-maker', allocation: '25%' },
        ],
      }).strategies.map((s) => s.allocation),
    ).toEqual(['5000', '25%']);
    for (const bad of ['half', '0', '150%', '-5'])
      expect(() => parseConfig({ strategies: [{ plugin: 'sma-cross', allocation: bad }] })).toThrow(/strategies\.0\.allocation/);
  });
});
