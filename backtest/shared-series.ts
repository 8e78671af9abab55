/**
 * Price columns in shared memory for the optimizer's worker threads: a Float64Array backed by a
 * SharedArrayBuffer is handed to a thread by reference when structured-cloned (workerData,
 * postMessage), so N threads read one copy of the points instead of each holding its own.
 */

/** Whether `a` already lives in shared memory. */
export function isSharedColumn(a: Float64Array): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
}

/**
 * `a` in shared memory: itself when it already is, else one copy (made once per optimize run, before
 * the threads start). Only the viewed range is copied, so a subarray costs its own points only.
 */
export function sharedColumn(a: Float64Array): Float64Array {
  if (isSharedColumn(a)) return a;
  const out = new Float64Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}
