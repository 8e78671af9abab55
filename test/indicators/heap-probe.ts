import { SMA as TiSMA, EMA as TiEMA, RSI as TiRSI, BollingerBands as TiBollinger } from 'technicalindicators';
import {
  Atr,
  BollingerBands,
  Ema,
  Macd,
  Momentum,
  RingBuffer,
  Roc,
  RollingMax,
  RollingMin,
  Rsi,
  Sma,
  StdDev,
  TiAdapter,
  Wma,
} from '../../src/indicators/index.js';
import { randomWalk } from './series.js';

/**
 * Heap retained per update: warm an indicator up, collect garbage, run `updates` more updates,
 * collect again and divide the growth by the count. Needs `--expose-gc`; used by the memory test
 * and by bench/indicators.ts through heap-retained.script.ts, which also times updates (one
 * subject per process keeps the measuring loop's call site monomorphic, as in real use).
 */

/** One measured subject: `step(x)` performs one update and returns something to keep it live. */
export interface HeapCase {
  readonly name: string;
  /** True for the subjects the framework exposes (they must retain ≤ 1 byte per update). */
  readonly ours: boolean;
  readonly make: () => (x: number) => number;
}

const INPUT_MASK = 65_535;
const INPUTS = randomWalk(7, INPUT_MASK + 1);

const num = (v: number | undefined): number => v ?? 0;

/** Every indicator the framework exposes, plus technicalindicators' own for contrast. */
export const HEAP_CASES: readonly HeapCase[] = [
  {
    name: 'Sma(20)',
    ours: true,
    make: () => {
      const i = new Sma(20);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'Ema(20)',
    ours: true,
    make: () => {
      const i = new Ema(20);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'Wma(20)',
    ours: true,
    make: () => {
      const i = new Wma(20);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'Rsi(14)',
    ours: true,
    make: () => {
      const i = new Rsi(14);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'Macd(12,26,9)',
    ours: true,
    make: () => {
      const i = new Macd();
      i.update(1);
      return (x) => num(i.update(x)) + i.signal + i.histogram;
    },
  },
  {
    name: 'StdDev(20)',
    ours: true,
    make: () => {
      const i = new StdDev(20);
      return (x) => num(i.update(x)) + i.mean;
    },
  },
  {
    name: 'BollingerBands(20,2)',
    ours: true,
    make: () => {
      const i = new BollingerBands();
      return (x) => num(i.update(x)) + i.upper + i.lower + i.percentB + i.bandwidth;
    },
  },
  {
    name: 'Atr(14)',
    ours: true,
    make: () => {
      const i = new Atr(14);
      return (x) => num(i.update(x * 1.001, x * 0.999, x));
    },
  },
  {
    name: 'Roc(12)',
    ours: true,
    make: () => {
      const i = new Roc(12);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'Momentum(12)',
    ours: true,
    make: () => {
      const i = new Momentum(12);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'RollingMax(50)',
    ours: true,
    make: () => {
      const i = new RollingMax(50);
      return (x) => num(i.update(x)) + i.age;
    },
  },
  {
    name: 'RollingMin(50)',
    ours: true,
    make: () => {
      const i = new RollingMin(50);
      return (x) => num(i.update(x));
    },
  },
  {
    name: 'RingBuffer(256)',
    ours: true,
    make: () => {
      const r = new RingBuffer(256);
      return (x) => r.push(x) + r.ago(0);
    },
  },
  {
    name: 'TiAdapter(SMA 20, rebuilt every 10k)',
    ours: true,
    make: () => {
      const i = new TiAdapter({
        name: 'SMA(20)',
        period: 20,
        create: () => new TiSMA({ period: 20, values: [] }),
        rebuild: { everyUpdates: 10_000, keepInputs: 20 },
      });
      return (x) => num(i.update(x));
    },
  },
  { name: 'baseline: loop and call only', ours: false, make: () => (x) => x },
  {
    name: 'technicalindicators SMA(20)',
    ours: false,
    make: () => {
      const i = new TiSMA({ period: 20, values: [] });
      return (x) => num(i.nextValue(x));
    },
  },
  {
    name: 'technicalindicators EMA(20)',
    ours: false,
    make: () => {
      const i = new TiEMA({ period: 20, values: [] });
      return (x) => num(i.nextValue(x));
    },
  },
  {
    name: 'technicalindicators RSI(14)',
    ours: false,
    make: () => {
      const i = new TiRSI({ period: 14, values: [] });
      return (x) => num(i.nextValue(x));
    },
  },
  {
    name: 'technicalindicators BollingerBands(20,2)',
    ours: false,
    make: () => {
      const i = new TiBollinger({ period: 20, stdDev: 2, values: [] });
      return (x) => i.nextValue(x)?.middle ?? 0;
    },
  },
];

export interface HeapResult {
  readonly name: string;
  readonly ours: boolean;
  readonly updates: number;
  /** Growth of the heap after full GC, divided by the measured updates. */
  readonly bytesPerUpdate: number;
}

/**
 * Measures one case. Run one case per process: V8's call feedback can keep the previous case's
 * objects alive into the next measurement. `warmUpdates` and `updates` should be multiples of
 * 10,000 so the rebuilding TiAdapter case is measured at the same phase both times.
 */
export async function measureRetained(c: HeapCase, gc: () => void, warmUpdates: number, updates: number): Promise<HeapResult> {
  const step = c.make();
  let sink = 0;
  // Warm up in two halves with a settle between, so start-up garbage (loader caches, compiled
  // code) is released before the baseline rather than during the measured run.
  const half = Math.floor(warmUpdates / 2);
  for (let i = 0; i < half; i++) sink += step(INPUTS[i & INPUT_MASK] as number);
  await settledHeap(gc);
  for (let i = half; i < warmUpdates; i++) sink += step(INPUTS[i & INPUT_MASK] as number);
  const before = await settledHeap(gc);
  for (let i = 0; i < updates; i++) sink += step(INPUTS[(warmUpdates + i) & INPUT_MASK] as number);
  const after = await settledHeap(gc);
  // Use the subject after the last measurement: otherwise it is dead by then and collected
  // (with anything it leaked), which would hide a leak.
  sink += step(INPUTS[0] as number);
  if (sink === 42.4242) process.stdout.write(''); // keeps `sink` observable
  return { name: c.name, ours: c.ours, updates, bytesPerUpdate: (after - before) / updates };
}

/**
 * Heap used after garbage collection. Collects across a few event-loop turns: WeakRef targets
 * (and loader caches held through them) can only be released between jobs, and releasing them
 * mid-measurement would show up as a negative growth.
 */
async function settledHeap(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  gc();
  return process.memoryUsage().heapUsed;
}

/** Best of `rounds` timed passes of `updates` updates, each on a fresh instance after a warm-up pass. */
export function measureNsPerUpdate(c: HeapCase, updates: number, rounds: number): number {
  const inputs = randomWalk(101, updates);
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const step = c.make();
    for (let i = 0; i < Math.min(updates, 50_000); i++) sink += step(inputs[i] as number);
    const started = process.hrtime.bigint();
    for (let i = 0; i < updates; i++) sink += step(inputs[i] as number);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / updates);
  }
  if (sink === 42.4242) process.stdout.write('');
  return best;
}
