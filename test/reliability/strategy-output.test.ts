import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy, type IntentDraft } from '../../src/strategy/index.js';
import { startReliabilityHarness, type ReliabilityHarness } from '../support/reliability-harness.js';
import { churnStrategy } from '../support/reliability-strategies.js';

/** Emits one malformed intent (chosen by `bad`) on every price update. */
const badOutput = defineStrategy({
  name: 'bad-output',
  description: 'test strategy: a malformed intent on every price',
  params: z.object({ bad: z.string() }),
  markets: ['BTCUSD'],
  create: (p) => ({
    onEvent(e) {
      if (e.kind !== 'price') return undefined;
      const order = { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', price: '50000.00', baseAmount: '0.001' } as const;
      const drafts: Record<string, unknown> = {
        nan: { ...order, baseAmount: 'NaN' },
        'nan-number': { ...order, baseAmount: Number.NaN },
        negative: { ...order, baseAmount: '-0.001' },
        'over-precise': { ...order, baseAmount: '0.000000001' },
        'unknown-market': { ...order, market: 'FOOBAR' },
      };
      return drafts[p.bad] as IntentDraft;
    },
  }),
});

/** Throws on the third price update. */
const thrower = defineStrategy({
  name: 'thrower',
  description: 'test strategy: throws after two prices',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    let n = 0;
    return {
      onEvent(e) {
        if (e.kind === 'price' && ++n === 3) throw new Error('indicator blew up');
        return undefined;
      },
    };
  },
});

let h: ReliabilityHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const placedBy = (h: ReliabilityHarness, strategy: string): number =>
  h.sandbox.sim.orders().filter((o) => h.journal.get(o.refId ?? '')?.strategy === strategy).length;

describe('bad strategy output never reaches the venue; the other strategies go on', () => {
  it.each([
    ['nan', 'INVALID_INTENT', /baseAmount must be a positive decimal string, got \\"NaN\\"/],
    ['nan-number', 'INVALID_INTENT', /baseAmount must be a positive decimal string, got null/],
    ['negative', 'INVALID_INTENT', /baseAmount must be a positive decimal string, got \\"-0.001\\"/],
    ['over-precise', 'PRECISION', /./],
    ['unknown-market', 'MARKET_NOT_ALLOWED', /FOOBAR/],
  ])('%s: denied as %s, nothing sent, the churn strategy keeps trading', { timeout: 60_000 }, async (bad, code, message) => {
    h = await startReliabilityHarness({ strategies: () => [{ definition: badOutput, params: { bad } }, { definition: churnStrategy }] });
    await h.step(20_000, 1_000);
    const denied = h.journal.intents().filter((r) => r.strategy === 'bad-output');
    expect(denied.length).toBeGreaterThan(5);
    expect(denied.every((r) => r.state === 'denied' && r.denialCode === code)).toBe(true);
    expect(placedBy(h, 'bad-output')).toBe(0);
    expect(placedBy(h, 'chaos-churn')).toBeGreaterThan(5);
    expect(h.logs()).toMatch(message); // the log line is JSON: quotes inside the message are escaped
  });

  it('a throwing strategy is stopped and reported; the others go on', { timeout: 60_000 }, async () => {
    h = await startReliabilityHarness({ strategies: () => [{ definition: thrower }, { definition: churnStrategy }] });
    await h.step(20_000, 1_000);
    // the reason names where the plugin threw; the log line carries the error with its stack
    expect(h.run.view().stoppedStrategies).toEqual([
      expect.stringMatching(/^thrower: onEvent threw: indicator blew up \(at .*onEvent \(.*strategy-output\.test\.ts:\d+:\d+\)\)$/),
    ]);
    expect(h.logs()).toMatch(/strategy thrower stopped: onEvent threw: indicator blew up/);
    expect(h.logs()).toMatch(/"stack":"Error: indicator blew up\\n\s+at .*onEvent/);
    const before = placedBy(h, 'chaos-churn');
    await h.step(10_000, 1_000);
    expect(placedBy(h, 'chaos-churn')).toBeGreaterThan(before);
    expect(h.run.strategies.find((s) => s.name === 'chaos-churn')?.stopped).toBeUndefined();
  });
});
