import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../exec/index.js';
import { FIRST_START_KEY, historyStart } from './orphan-history.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

function journal(): Journal {
  const j = new Journal(':memory:');
  journals.push(j);
  return j;
}

describe('how far back the start reads the venue for records the journal lacks', () => {
  it("from the journal's first start, recorded at that start and kept, an hour earlier", () => {
    const j = journal();
    const first = Date.UTC(2026, 0, 1);
    expect(historyStart(j, first)).toBe(first - DAY - HOUR);
    expect(j.getMeta(FIRST_START_KEY)).toBe(String(first));
    expect(historyStart(j, first + 30 * DAY)).toBe(first - HOUR);
  });

  it('for a journal made before its first start was recorded: from its oldest intent', () => {
    const j = journal();
    const oldest = Date.UTC(2026, 0, 1);
    for (const [n, at] of [
      [1, oldest],
      [2, oldest + 5 * DAY],
    ] as const) {
      j.recordDecision({
        kind: 'approve',
        at,
        intent: {
          kind: 'place-order',
          intentId: `p-${n}`,
          strategy: 's',
          market: 'BTCUSD',
          side: 'BUY',
          type: 'MARKET',
          quoteAmount: '10',
        },
      });
    }
    expect(historyStart(j, oldest + 40 * DAY)).toBe(oldest - HOUR);
    expect(j.getMeta(FIRST_START_KEY)).toBe(String(oldest));
  });
});
