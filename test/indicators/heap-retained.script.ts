/**
 * Child-process entry for heap-retained measurements (needs a real `gc`):
 *   node --import tsx --expose-gc test/indicators/heap-retained.script.ts
 *     [--updates N] [--warm N] [--time N] [--only ours|theirs] [name…]
 * Prints one JSON HeapResult per line on stdout; with `--time N` each line also carries
 * `nsPerUpdate` (best of 3 passes of N updates, measured before the heap run). Measure one
 * subject per process for clean figures.
 */
import { HEAP_CASES, measureNsPerUpdate, measureRetained } from './heap-probe.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('heap-retained.script.ts needs node --expose-gc\n');
  process.exit(2);
}

const args = process.argv.slice(2);
let updates = 300_000;
let warm = 100_000;
let timed = 0;
let only: 'ours' | 'theirs' | undefined;
const names: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  if (arg === '--updates') updates = Number(args[++i]);
  else if (arg === '--warm') warm = Number(args[++i]);
  else if (arg === '--time') timed = Number(args[++i]);
  else if (arg === '--only') only = args[++i] === 'theirs' ? 'theirs' : 'ours';
  else names.push(arg);
}

for (const c of HEAP_CASES) {
  if (only === 'ours' && !c.ours) continue;
  if (only === 'theirs' && c.ours) continue;
  if (names.length > 0 && !names.includes(c.name)) continue;
  const nsPerUpdate = timed > 0 ? measureNsPerUpdate(c, timed, 3) : undefined;
  const result = await measureRetained(c, gc, warm, updates);
  process.stdout.write(`${JSON.stringify({ ...result, nsPerUpdate })}\n`);
}
