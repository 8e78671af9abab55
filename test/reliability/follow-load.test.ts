import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { D } from '../../src/core/index.js';
import { midOf } from '../../src/state/index.js';
import { defineStrategy } from '../../src/strategy/index.js';
import { startReliabilityHarness, type ReliabilityHarness } from '../support/reliability-harness.js';

/** Rests one buy 3 % under the mid per price until 30 are open; never cancels. */
const rester = defineStrategy({
  name: 'rester',
  description: 'test strategy: thirty resting buys',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let placed = 0;
    return {
      onEvent(e, ctx) {
        const mid = midOf(ctx.market('BTCUSD'));
        if (e.kind !== 'price' || mid === undefined || placed >= 30) return undefined;
        placed++;
        return {
          kind: 'place-order',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'LIMIT',
          baseAmount: '0.0002',
          price: new D(mid).times('0.97').toDecimalPlaces(2, D.ROUND_DOWN).toFixed(),
        };
      },
    };
  },
});

let h: ReliabilityHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('following open orders under a shared request budget', () => {
  it(
    'resting orders the open-orders stream shows unchanged are not polled one by one (which starved market data)',
    { timeout: 60_000 },
    async () => {
      h = await startReliabilityHarness({ strategies: () => [{ definition: rester }] });
      await h.step(60_000, 500);
      const open = h.journal.intents({ state: 'open' }).length;
      expect(open).toBeGreaterThanOrEqual(20); // the first few are denied until balances arrive
      const from = h.clock.now();
      await h.step(60_000, 500);
      const inWindow = (op: string): number => h!.responses.filter((r) => r.operation === op && r.atMs >= from).length;
      // before: every open order every orders_ms (≈ open × 60 GetOrder a minute)
      expect(inWindow('GetOrder')).toBeLessThan(open);
      expect(inWindow('ListPrices')).toBeGreaterThanOrEqual(55);
    },
  );
});
