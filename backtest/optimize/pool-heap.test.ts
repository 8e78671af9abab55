import { describe, expect, it } from 'vitest';
import { holdPoolHeapGrowth, POOL_HEAP_GROWING_PERCENT } from './pool-heap.js';

describe('holdPoolHeapGrowth', () => {
  it('sets the factor for the first pool and puts V8 back to its own choice when the last one ends', () => {
    const set: string[] = [];
    const first = holdPoolHeapGrowth([], (f) => set.push(f));
    expect(set).toEqual([`--heap-growing-percent=${POOL_HEAP_GROWING_PERCENT}`]);
    const second = holdPoolHeapGrowth([], (f) => set.push(f));
    first();
    first(); // a second release of the same pool counts once
    expect(set).toHaveLength(1);
    second();
    expect(set).toEqual([`--heap-growing-percent=${POOL_HEAP_GROWING_PERCENT}`, '--heap-growing-percent=0']);
    const third = holdPoolHeapGrowth([], (f) => set.push(f));
    third();
    expect(set).toHaveLength(4);
  });

  it('leaves a factor the process was started with alone', () => {
    const set: string[] = [];
    for (const own of [
      ['--heap-growing-percent=50'],
      ['--max-old-space-size=512', '--heap_growing_percent=20'],
      ['--heap-growing-percent'],
    ])
      holdPoolHeapGrowth(own, (f) => set.push(f))();
    expect(set).toEqual([]);
    holdPoolHeapGrowth(['--heap-growing-percentage-not'], (f) => set.push(f))();
    expect(set).toHaveLength(2);
  });
});
