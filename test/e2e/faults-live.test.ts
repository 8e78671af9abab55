import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { D } from '../../src/core/index.js';
import { midOf } from '../../src/state/index.js';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';

/** Places a small resting buy on every price and cancels the oldest beyond five: many intents. */
const churn = defineStrategy({
  name: 'churn',
  description: 'test strategy: one resting order per price update, oldest cancelled beyond five',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => ({
    onEvent(e, ctx) {
      if (e.kind !== 'price') return undefined;
      const mid = midOf(ctx.market('BTCUSD'));
      if (mid === undefined) return undefined;
      const out: IntentDraft[] = [
        {
          kind: 'place-order',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: '0.0001',
          price: new D(mid).times('0.97').toDecimalPlaces(2, D.ROUND_DOWN).toFixed(),
        },
      ];
      const open = ctx.account.openOrders('BTCUSD');
      if (open.length > 5 && open[0]) out.push({ kind: 'cancel-order', orderRefId: open[0].refId });
      return out;
    },
  }),
});

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('live pipeline under injected faults', () => {
  it(
    'over 1,000+ intents with timeouts after commit, 5xx, 429 and resets: no duplicate order, none missing from the journal',
    { timeout: 240_000 },
    async () => {
      h = await startLiveHarness(
        churn,
        {},
        {
          streams: {
            prices_ms: 1_000,
            balances_ms: 1_000,
            orders_ms: 1_000,
            ticker_ms: 5_000,
            book_ms: 5_000,
            quotes_ms: 5_000,
            warmup_points: 5,
          },
          risk: { max_intents_per_minute: 10_000, max_open_orders: 1_000, stale_after_ms: 60_000, price_band_bps: 1_000 },
        },
        { USD: '1000000' },
        {
          faults: {
            seed: 77,
            retryAfterSec: 1,
            rules: [
              { mode: 'commit-drop', target: 'CreateOrder', rate: 0.08 },
              { mode: 'error5xx', target: 'CreateOrder', rate: 0.05 },
              { mode: 'drop', target: 'CreateOrder', rate: 0.04 },
              { mode: 'error429', target: 'CreateOrder', rate: 0.03 },
              { mode: 'error5xx', target: 'GetOrder', rate: 0.05 },
              { mode: 'drop', target: 'ListProfileOrders', rate: 0.03 },
              { mode: 'error5xx', target: 'CancelOrder', rate: 0.05 },
            ],
          },
        },
      );
      const sb = h.sandbox;
      let seconds = 0;
      while (h.run.engine.counters.intents < 1_000 && seconds < 3_000) {
        await h.step(10_000, 1_000);
        seconds += 10;
      }
      expect(h.run.engine.counters.intents).toBeGreaterThanOrEqual(1_000);
      const injected = sb.faults.log.total;
      expect(injected).toBeGreaterThan(50);
      expect(sb.faults.log.count('commit-drop')).toBeGreaterThan(10);
      // faults stop; within two minutes every journaled order is resolved
      sb.faults.clear();
      await h.step(120_000, 1_000);
      const orders = sb.sim.orders();
      expect(new Set(orders.map((o) => o.refId)).size).toBe(orders.length);
      for (const o of orders) expect(h.journal.get(o.refId ?? '')?.venueId, `venue order ${o.refId} missing from the journal`).toBe(o.id);
      const stuck = h.journal.active().filter((r) => r.state === 'sent' || r.state === 'unresolved');
      expect(stuck.map((r) => r.refId)).toEqual([]);
      const notPlaced = h.journal.intents({ kind: 'place-order' }).filter((r) => r.status === 'NOT_PLACED');
      for (const r of notPlaced) expect(orders.some((o) => o.refId === r.refId)).toBe(false);
    },
  );
});
