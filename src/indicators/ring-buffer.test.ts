import { describe, expect, it } from 'vitest';
import { InputError } from '../core/index.js';
import { RingBuffer } from './ring-buffer.js';

describe('RingBuffer', () => {
  it('keeps the last `capacity` values and returns each evicted one', () => {
    const ring = new RingBuffer(3);
    expect([ring.push(1), ring.push(2), ring.push(3)]).toEqual([NaN, NaN, NaN]);
    expect(ring.full).toBe(true);
    expect(ring.push(4)).toBe(1);
    expect(ring.push(5)).toBe(2);
    expect([ring.get(0), ring.get(1), ring.get(2)]).toEqual([3, 4, 5]);
    expect([ring.ago(0), ring.ago(1), ring.ago(2)]).toEqual([5, 4, 3]);
    expect(ring.oldest).toBe(3);
    expect(ring.newest).toBe(5);
    expect(ring.length).toBe(3);
  });

  it('reads the partial window oldest-first before it is full', () => {
    const ring = new RingBuffer(4);
    ring.push(7);
    ring.push(8);
    expect(ring.full).toBe(false);
    expect(ring.get(0)).toBe(7);
    expect(ring.ago(0)).toBe(8);
    const out = new Float64Array(4);
    expect(ring.copyTo(out)).toBe(2);
    expect(Array.from(out.subarray(0, 2))).toEqual([7, 8]);
  });

  it('throws on reads outside the held values and on a short copy target', () => {
    const ring = new RingBuffer(2);
    expect(Number.isNaN(ring.oldest)).toBe(true);
    expect(() => ring.get(0)).toThrow(RangeError);
    ring.push(1);
    expect(() => ring.ago(1)).toThrow(RangeError);
    expect(() => ring.get(-1)).toThrow(RangeError);
    ring.push(2);
    expect(() => ring.copyTo(new Float64Array(1))).toThrow(RangeError);
  });

  it('clear empties it and it fills again from scratch', () => {
    const ring = new RingBuffer(2);
    ring.push(1);
    ring.push(2);
    ring.clear();
    expect(ring.length).toBe(0);
    expect(ring.push(3)).toBeNaN();
    expect(ring.newest).toBe(3);
  });

  it('rejects a capacity that is not a positive integer, naming the field', () => {
    expect(() => new RingBuffer(0)).toThrow(InputError);
    expect(() => new RingBuffer(2.5)).toThrow(/capacity: must be an integer ≥ 1, got 2.5/);
  });
});
