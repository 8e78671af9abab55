import { afterEach, describe, expect, it } from 'vitest';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Fills journaled for orders, or settled quote executions, after `hours` of simulated time. */
async function tradesAfter(harness: LiveHarness, hours: number): Promise<{ fills: number; settled: number; orders: number }> {
  await harness.step(hours * 3_600_000, 5_000);
  const settled = harness.journal.intents({ kind: 'execute-quote' }).filter((r) => r.status === 'SETTLED').length;
  const orders = harness.sandbox.sim.orders();
  // nothing doubled, nothing lost: one venue order per ref_id, each journaled; every venue fill journaled once
  expect(new Set(orders.map((o) => o.refId)).size).toBe(orders.length);
  for (const o of orders) expect(harness.journal.get(o.refId ?? '')?.venueId).toBe(o.id);
  expect(
    harness.journal
      .fills()
      .map((f) => f.fillId)
      .sort(),
  ).toEqual(
    harness.sandbox.sim
      .executions()
      .map((x) => x.executionId)
      .sort(),
  );
  return { fills: harness.journal.fills().length, settled, orders: orders.length };
}

describe('built-in strategies complete trades against the local sandbox', () => {
  it('sma-cross', async () => {
    h = await startLiveHarness('sma-cross', { fast: 2, slow: 5, size_pct: 10 });
    const t = await tradesAfter(h, 1);
    expect(t.fills).toBeGreaterThan(0);
    expect(h.sandbox.sim.orders().every((o) => o.refId?.startsWith('e2e-'))).toBe(true);
  });

  it('rsi-reversion', async () => {
    h = await startLiveHarness('rsi-reversion', { period: 5, lower: 40, upper: 60, size_pct: 10 });
    expect((await tradesAfter(h, 1)).fills).toBeGreaterThan(0);
  });

  it('bollinger', async () => {
    h = await startLiveHarness('bollinger', { period: 10, k: 0.5, size_pct: 10 });
    expect((await tradesAfter(h, 1)).fills).toBeGreaterThan(0);
  });

  it('quote-dca', async () => {
    h = await startLiveHarness('quote-dca', { quote_amount: '50.00', interval_ms: 300_000, max_bps: 200, min_time_left_ms: 2_000 });
    const t = await tradesAfter(h, 1);
    expect(t.settled).toBeGreaterThan(0);
  });

  it('grid-maker', async () => {
    h = await startLiveHarness(
      'grid-maker',
      { levels: 2, spacing_bps: 5, recenter_bps: 40, base_amount: '0.001', max_base: '0.01' },
      {},
      { USD: '100000', BTC: '0.005' },
    );
    const t = await tradesAfter(h, 1);
    expect(t.fills).toBeGreaterThan(0);
  });
});
