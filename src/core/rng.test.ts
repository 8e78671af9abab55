import { describe, expect, it } from 'vitest';
import { Rng } from './rng.js';

describe('Rng', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(new Rng(8).next()).not.toBe(xs[0]);
  });

  it('draws uniform floats in [0, 1) and normals with mean near 0', () => {
    const r = new Rng('seed');
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      sum += r.normal();
    }
    expect(Math.abs(sum / 10_000)).toBeLessThan(0.05);
  });

  it('makes version-4 UUIDs', () => {
    expect(new Rng(1).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
