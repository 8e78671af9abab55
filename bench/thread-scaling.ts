/**
 * What two threads of plain JavaScript gain over one on this machine: the ceiling the optimizer's
 * speed-up is read against. Each thread makes 30,000,000 small objects, keeping one in 64 for a while
 * (the pattern of a backtest's records: most die young, a few are promoted), with nothing shared; one
 * thread runs it, then two at once.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const WORK = `
const { parentPort } = require('node:worker_threads');
const t0 = performance.now();
let keep = [];
let s = 0;
for (let i = 0; i < 3e7; i++) {
  const o = { a: i, b: i * 1.5, c: String(i & 1023) };
  if ((i & 63) === 0) keep.push(o);
  if (keep.length > 5000) keep = [];
  s += o.b;
}
parentPort.postMessage({ ms: performance.now() - t0, s });
`;

function threads(n: number): Promise<number> {
  const t0 = performance.now();
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = new Worker(WORK, { eval: true });
      w.once('message', () => resolve());
      w.once('error', reject);
    });
  return Promise.all(Array.from({ length: n }, one)).then(() => performance.now() - t0);
}

/** Best of `rounds` of one thread against best of two threads doing twice the work: the speed-up. */
export async function threadScaling(rounds = 3): Promise<{ one: number; two: number; speedUp: number }> {
  let one = Infinity;
  let two = Infinity;
  for (let r = 0; r < rounds; r++) {
    one = Math.min(one, await threads(1));
    two = Math.min(two, await threads(2));
  }
  return { one, two, speedUp: (2 * one) / two };
}
