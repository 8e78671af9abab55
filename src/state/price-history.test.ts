import { describe, expect, it } from 'vitest';
import { PriceHistory } from './price-history.js';

describe('PriceHistory', () => {
  it.each([1, 2, 3, 7])('keeps the newest %i entries in time order however many are pushed (against a plain array)', (capacity) => {
    const h = new PriceHistory(capacity);
    const kept: Array<[number, number]> = [];
    for (let i = 0; i < 5 * capacity + 3; i++) {
      h.push(1_000 * i, 100 + i / 4);
      kept.push([1_000 * i, 100 + i / 4]);
      if (kept.length > capacity) kept.shift();
      expect(h.length).toBe(kept.length);
      expect(Array.from({ length: h.length }, (_, k) => [h.timeAt(k), h.priceAt(k)])).toEqual(kept);
      expect(h.last()).toBe(kept[kept.length - 1]![1]);
      // entries at or before a time between the oldest and the newest
      const at = kept[0]![0] + 500 * (kept.length - 1);
      expect(h.countUpTo(at)).toBe(kept.filter(([t]) => t <= at).length);
    }
  });

  it('is empty at first and refuses an index outside what it holds', () => {
    const h = new PriceHistory(2);
    expect([h.length, h.last(), h.countUpTo(Infinity)]).toEqual([0, undefined, 0]);
    h.push(1, 10);
    expect(() => h.priceAt(1)).toThrow(RangeError);
    expect(() => h.timeAt(-1)).toThrow(RangeError);
    expect(() => new PriceHistory(0)).toThrow(/capacity must be a positive integer/);
  });
});
