/**
 * Indicator figures: ns per update for each framework indicator and for technicalindicators
 * 3.1.0's incremental SMA/EMA/RSI/Bollinger `nextValue` on the same 500,000-point random walk,
 * and heap retained per update for each. Every subject runs in its own child
 * `node --expose-gc` process (the same probe the memory test uses): a real gc, no other
 * subject's garbage, and a monomorphic call site as in a strategy. Run: `npm run bench -- indicators`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HEAP_CASES, type HeapResult } from '../test/indicators/heap-probe.js';

const TIMED_UPDATES = 500_000;
const SCRIPT = fileURLToPath(new URL('../test/indicators/heap-retained.script.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));

type Measured = HeapResult & { readonly nsPerUpdate: number };

async function measure(name: string): Promise<Measured> {
  const args = ['--import', 'tsx', '--expose-gc', SCRIPT, '--time', String(TIMED_UPDATES), name];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, timeout: 180_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measured;
}

export async function run(): Promise<void> {
  process.stdout.write(
    `time: best of 3 × ${TIMED_UPDATES.toLocaleString('en-US')} updates; retained: heap growth after GC over 300,000 updates after warm-up\n`,
  );
  const ns = new Map<string, number>();
  for (const c of HEAP_CASES) {
    const m = await measure(c.name);
    ns.set(c.name, m.nsPerUpdate);
    process.stdout.write(
      `${c.name.padEnd(42)} ${m.nsPerUpdate.toFixed(1).padStart(8)} ns/update ${m.bytesPerUpdate.toFixed(2).padStart(9)} B/update retained\n`,
    );
  }
  const ratio = (ours: string, theirs: string): string => ((ns.get(theirs) ?? NaN) / (ns.get(ours) ?? NaN)).toFixed(1);
  process.stdout.write(
    `technicalindicators time / ours: SMA ×${ratio('Sma(20)', 'technicalindicators SMA(20)')}, ` +
      `EMA ×${ratio('Ema(20)', 'technicalindicators EMA(20)')}, RSI ×${ratio('Rsi(14)', 'technicalindicators RSI(14)')}, ` +
      `Bollinger ×${ratio('BollingerBands(20,2)', 'technicalindicators BollingerBands(20,2)')}\n`,
  );
}
