/**
 * V8's heap growing factor while the optimizer's threads run. V8 has no per-thread setting for it,
 * so it is set for the process while a pool runs (its own threads, started after, take it too) and
 * put back to V8's own choice when the last pool ends.
 *
 * Why: a 1,000,000-point sma-cross job promotes about 12 MB to a thread's old generation, and with
 * the factor V8 picks for a heap of ~20 MB live (about 1.5) the thread ran a full collection every
 * half job. Each marks the whole live heap, mostly on the thread's helper threads, which take the
 * core the other worker needs. At 2 a thread collects about once a job. It changes only when V8
 * collects, never what it keeps; the cost is a few MB more heap per thread.
 */
import { setFlagsFromString } from 'node:v8';

/** The factor is 1 + this / 100. */
export const POOL_HEAP_GROWING_PERCENT = 100;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

let holders = 0;

/**
 * Sets the factor until the returned function is called (pools running at once share it; the last
 * to end puts it back). A process started with its own `--heap-growing-percent` keeps it.
 */
export function holdPoolHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): () => void {
  if (execArgv.some((a) => FLAG.test(a))) return () => undefined;
  if (holders++ === 0) setFlags(`--heap-growing-percent=${POOL_HEAP_GROWING_PERCENT}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) setFlags('--heap-growing-percent=0');
  };
}
