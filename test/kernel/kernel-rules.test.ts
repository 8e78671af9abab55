/**
 * The kernel's rules that used to differ between modes, exercised on the backtest's ports (point
 * replay): open orders counted from approval until closed, and the kill switch's cancels and halt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildBacktestBundle, type BacktestBundle } from '../../backtest/driver.js';
import { D, type Decision, type ExecReport } from '../../src/core/index.js';
import { RiskLimitsSchema, type RiskLimits } from '../../src/risk/index.js';
import { defineStrategy, type IntentDraft, type StrategyContext } from '../../src/strategy/index.js';

const T0 = Date.UTC(2025, 2, 1);
const bundles: BacktestBundle[] = [];
afterEach(() => {
  for (const b of bundles.splice(0)) {
    b.kernel.close();
    b.journal.close();
  }
});

/** Each price event: the strategy's script for that point (by point number), with what ctx showed. */
type Script = (point: number, ctx: StrategyContext) => IntentDraft[];

function rig(script: Script, limits: Partial<RiskLimits> = {}, o: { journalFile?: string; funding?: Record<string, string> } = {}) {
  let point = 0;
  const seen: Array<{ point: number; open: number }> = [];
  const reports: ExecReport[] = [];
  const definition = defineStrategy({
    name: 'scripted',
    description: 'does what the test script says at each point',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: () => ({
      onEvent: (e, ctx) => {
        if (e.kind !== 'price') return undefined;
        point++;
        seen.push({ point, open: ctx.account.openOrders('BTCUSD').length });
        return script(point, ctx);
      },
      onReport: (r) => void reports.push(r),
    }),
  });
  const funding = o.funding ?? { USD: '100000', BTC: '1' };
  const b = buildBacktestBundle({
    definition,
    params: {},
    markets: ['BTCUSD'],
    startMs: T0,
    limits: RiskLimitsSchema.parse({ price_band_bps: 5_000, ...limits }),
    venue: { funding },
    // the starting BTC is the strategy's own, as a single-strategy backtest makes it (backtest/run.ts)
    ...(funding.BTC !== undefined && { startHoldings: [{ strategy: 'scripted', market: 'BTCUSD', amount: funding.BTC, price: '100' }] }),
    ...(o.journalFile && { journalFile: o.journalFile }),
  });
  bundles.push(b);
  const decisions: Decision[] = [];
  b.kernel.decisions$.subscribe((d) => decisions.push(d));
  const step = async (price: number): Promise<void> => {
    const at = T0 + (point + 1) * 60_000;
    b.clock.advanceTo(at);
    b.source.step('BTCUSD', at, price);
    await b.kernel.drain();
  };
  const outcomes = () => decisions.map((d) => (d.kind === 'approve' ? 'approve' : d.reason.code));
  return { b, step, decisions, outcomes, reports, seen };
}

const bid = (price: string, baseAmount = '0.01'): IntentDraft => ({
  kind: 'place-order',
  market: 'BTCUSD',
  side: 'BUY',
  type: 'LIMIT',
  baseAmount,
  price,
  timeInForce: 'GTC',
});

describe('Kernel: open orders counted the same in every mode', () => {
  it('counts an order from approval, so a burst at one point never passes max_open_orders, and the strategy sees it at once', async () => {
    const r = rig((p) => (p === 1 ? [bid('50000.00'), bid('50000.00'), bid('50000.00')] : p === 2 ? [bid('50000.00')] : []), {
      max_open_orders: 2,
    });
    await r.step(60_000);
    expect(r.outcomes()).toEqual(['approve', 'approve', 'MAX_OPEN_ORDERS']);
    expect(r.b.kernel.openOrders.count()).toBe(2);
    await r.step(60_000);
    // the two rest at the venue: the strategy lists them, and a fourth is denied too
    expect(r.seen.at(-1)).toEqual({ point: 2, open: 2 });
    expect(r.outcomes()).toEqual(['approve', 'approve', 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS']);
    const denied = r.reports.find((x) => x.kind === 'denied');
    expect(denied).toMatchObject({ kind: 'denied', reason: { code: 'MAX_OPEN_ORDERS', details: { open: 2, max_open_orders: 2 } } });
  });

  it('lets an order go once one closes (filled or cancelled), from the report that closes it', async () => {
    const r = rig(
      (p, ctx) => {
        if (p === 1) return [bid('59000.00'), bid('50000.00')];
        if (p === 3) return [{ kind: 'cancel-order', orderRefId: ctx.account.openOrders()[0]!.refId }];
        if (p === 4) return [bid('40000.00')];
        return [];
      },
      { max_open_orders: 2 },
    );
    await r.step(60_000);
    await r.step(58_000); // the 59000 bid fills: one open left
    expect(r.b.kernel.openOrders.count()).toBe(1);
    await r.step(60_000); // cancel the other
    expect(r.b.kernel.openOrders.count()).toBe(0);
    await r.step(60_000);
    expect(r.outcomes()).toEqual(['approve', 'approve', 'approve', 'approve']);
    expect(r.reports.map((x) => x.kind)).toContain('cancelled');
  });

  it('after a restart counts the orders a previous run left open (journal on disk)', async () => {
    const file = `${(await import('node:os')).tmpdir()}/tradeloop-kernel-${process.pid}.sqlite`;
    (await import('node:fs')).rmSync(file, { force: true });
    const first = rig((p) => (p === 1 ? [bid('50000.00'), bid('50000.00')] : []), { max_open_orders: 2 }, { journalFile: file });
    await first.step(60_000);
    expect(first.b.kernel.openOrders.count()).toBe(2);
    first.b.kernel.close();
    first.b.journal.close();
    bundles.splice(bundles.indexOf(first.b), 1);
    const second = rig((p) => (p === 1 ? [bid('50000.00')] : []), { max_open_orders: 2 }, { journalFile: file });
    expect(second.b.kernel.openOrders.count()).toBe(2);
    await second.step(60_000);
    expect(second.outcomes()).toEqual(['MAX_OPEN_ORDERS']);
    (await import('node:fs')).rmSync(file, { force: true });
  });
});

describe('Kernel: the kill switch acts the same in every mode', () => {
  it('cancels every open order when it trips, denies new buys HALTED and still approves a sell that reduces the position', async () => {
    const r = rig(
      (p) => {
        if (p === 1) return [bid('50000.00'), bid('49000.00')];
        if (p === 3) return [bid('48000.00'), { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.3' }];
        return [];
      },
      { daily_loss_limit: '1000' },
    );
    await r.step(60_000);
    expect(r.b.points.openOrders()).toHaveLength(2);
    expect(r.b.kernel.markEquity(new D('160000'), r.b.clock.now())).toBeUndefined();
    await r.step(58_000);
    const tripped = r.b.kernel.markEquity(new D('158000'), r.b.clock.now());
    expect(tripped).toMatch(/daily loss 2000.00 exceeds 1000/);
    await r.b.kernel.drain();
    expect(r.b.points.openOrders()).toHaveLength(0);
    expect(r.reports.filter((x) => x.kind === 'cancelled')).toHaveLength(2);
    await r.step(58_000);
    expect(r.outcomes().slice(-2)).toEqual(['HALTED', 'approve']);
    await r.step(58_000); // the reducing sell fills: the position was never trapped
    expect(r.b.points.balance('BTC').available.toFixed()).toBe('0.7');
  });

  it('halts by hand with the same cancels (an operator, a conflicting ref_id)', async () => {
    const r = rig((p) => (p === 1 ? [bid('50000.00')] : p === 2 ? [bid('50000.00')] : []));
    await r.step(60_000);
    r.b.kernel.halt('operator asked');
    await r.b.kernel.drain();
    expect(r.b.points.openOrders()).toHaveLength(0);
    await r.step(60_000);
    expect(r.outcomes()).toEqual(['approve', 'HALTED']);
    expect(r.decisions.at(-1)).toMatchObject({ reason: { message: expect.stringMatching(/operator asked/) } });
  });
});
