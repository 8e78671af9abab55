import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { isSharedColumn, sharedColumn } from './shared-series.js';

describe('sharedColumn', () => {
  it('copies a column into shared memory once, leaving the original as it was', () => {
    const plain = Float64Array.from([1.5, 2.25, 3]);
    const s = sharedColumn(plain);
    expect(isSharedColumn(plain)).toBe(false);
    expect(isSharedColumn(s)).toBe(true);
    expect(Array.from(s)).toEqual([1.5, 2.25, 3]);
    expect(sharedColumn(s)).toBe(s);
  });

  it('copies only the viewed range of a subarray', () => {
    const s = sharedColumn(Float64Array.from([1, 2, 3, 4]).subarray(1, 3));
    expect(Array.from(s)).toEqual([2, 3]);
    expect(s.buffer.byteLength).toBe(16);
  });

  it('is passed by reference through structured cloning (what a worker thread receives)', () => {
    const s = sharedColumn(Float64Array.from([10, 20]));
    const { port1, port2 } = new MessageChannel();
    port1.postMessage({ times: s });
    const got = (receiveMessageOnPort(port2)!.message as { times: Float64Array }).times;
    port1.close();
    s[0] = 11; // a write on one side is seen on the other: the same memory, not a copy
    expect(got[0]).toBe(11);
    // a plain column, by contrast, arrives as a copy
    const copy = Float64Array.from([10, 20]);
    const { port1: a, port2: b } = new MessageChannel();
    a.postMessage({ times: copy });
    const cloned = (receiveMessageOnPort(b)!.message as { times: Float64Array }).times;
    a.close();
    copy[0] = 11;
    expect(cloned[0]).toBe(10);
  });
});
