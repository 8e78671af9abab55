import { describe, expect, it } from 'vitest';
import { minMaxIndices, pick } from './downsample.js';

const ramp = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i % 7);

describe('minMaxIndices', () => {
  it('keeps every point when there are no more than maxPoints', () => {
    expect(Array.from(minMaxIndices(5, [ramp(5)], 5))).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps at most maxPoints ascending unique indices including the first and last', () => {
    const idx = minMaxIndices(100_000, [ramp(100_000)], 1000);
    expect(idx.length).toBeLessThanOrEqual(1000);
    expect(idx.length).toBeGreaterThan(900);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(99_999);
    for (let k = 1; k < idx.length; k++) expect(idx[k]!).toBeGreaterThan(idx[k - 1]!);
  });

  it('keeps a one-point spike and a one-point dip of every series', () => {
    const a = new Float64Array(50_000).fill(1);
    const b = new Float64Array(50_000).fill(1);
    a[12_345] = 100;
    b[33_333] = -5;
    b[40_001] = NaN;
    const idx = Array.from(minMaxIndices(50_000, [a, b], 400));
    expect(idx).toContain(12_345);
    expect(idx).toContain(33_333);
    expect(idx).not.toContain(40_001);
  });
});

describe('pick', () => {
  it('takes values at indices, scaled and rounded', () => {
    const v = Float64Array.from([1000.123456, 2000.987654, 3000]);
    expect(pick(v, Uint32Array.from([0, 2]))).toEqual([1000.123456, 3000]);
    expect(pick(v, Uint32Array.from([1]), 1e-3, 3)).toEqual([2.001]);
    expect(pick(v, Uint32Array.from([0]), -1, 2)).toEqual([-1000.12]);
  });
});
