/**
 * `npm run soak -- --hours H [--speed X] [--faults SPEC] [--sample-min M]`: a long run of built-in
 * strategies against the local sandbox on accelerated time, with the sandbox's rate limits on and
 * light faults. Reports heap and RSS over time, event-loop delay p99, requests per endpoint and
 * 429s, and checks the targets: heap growth after warm-up < 1 MB per simulated hour, zero 429s from
 * our own pacing (injected 429s are excluded: none by default), event-loop delay p99 < 50 ms.
 * Needs `node --expose-gc` (the npm script passes it). Exits 1 when a target is missed.
 */
import { parseArgs } from 'node:util';
import { runSoak, type SoakSample } from './soak-run.js';

const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '24' },
    speed: { type: 'string', default: '60' },
    faults: {
      type: 'string',
      default:
        'error5xx=0.01,drop=0.005,truncate=0.005,malformed=0.002,commit-drop@CreateOrder=0.02,commit-5xx@CreateQuoteExecution=0.02,seed=3',
    },
    'sample-min': { type: 'string', default: '30' },
    'warmup-hours': { type: 'string', default: '2' },
  },
});

function positive(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--${name}: expected a positive number, got ${JSON.stringify(v)}`);
  return n;
}

const hours = positive('hours', values.hours);
const speed = positive('speed', values.speed);
const warmup = Math.min(positive('warmup-hours', values['warmup-hours']), hours / 4);
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') throw new Error('run with node --expose-gc (npm run soak does)');
const out = (s: string): void => void process.stdout.write(`${s}\n`);
out(`soak: ${hours} simulated hours at ${speed}× (≈ ${((hours * 60) / speed).toFixed(0)} min wall), faults ${values.faults}`);
out('sim h    wall s   heap MB   rss MB   loop p99 ms   requests');
const row = (s: SoakSample): void =>
  out(
    `${s.simHours.toFixed(2).padStart(5)} ${s.wallSeconds.toFixed(0).padStart(8)} ${s.heapMb.toFixed(2).padStart(9)} ${s.rssMb.toFixed(1).padStart(8)} ${s.loopP99Ms.toFixed(1).padStart(13)} ${String(s.requests).padStart(10)}`,
  );
const r = await runSoak({
  hours,
  speed,
  faults: values.faults ?? '',
  sampleMinutes: positive('sample-min', values['sample-min']),
  onSample: row,
});

/** Least-squares slope of heap (MB) over simulated hours, after warm-up. */
function slope(samples: readonly SoakSample[]): number {
  const xs = samples.map((s) => s.simHours);
  const ys = samples.map((s) => s.heapMb);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const after = r.samples.filter((s) => s.simHours >= warmup);
const growth = slope(after);
const own429 = r.status429 - r.injected429;
out('');
out(
  `requests per endpoint: ${Object.entries(r.requestsByOperation)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
out(
  `intents ${r.intents}, orders placed ${r.ordersPlaced}, fills ${r.fills}, unresolved at the end ${r.unresolved}, faults injected ${r.faultsInjected}`,
);
out(
  `heap after warm-up (${warmup} h): ${after[0]?.heapMb.toFixed(2)} → ${after.at(-1)?.heapMb.toFixed(2)} MB, slope ${growth.toFixed(3)} MB per simulated hour (target < 1)`,
);
out(`429 responses: ${r.status429} (${r.injected429} injected, ${own429} from our pacing; target 0)`);
out(`event-loop delay over the run: p99 ${r.loopP99Ms.toFixed(1)} ms, max ${r.loopMaxMs.toFixed(1)} ms (target p99 < 50)`);
const missed = [
  growth >= 1 && 'heap growth',
  own429 > 0 && '429s',
  r.loopP99Ms >= 50 && 'event-loop delay',
  r.unresolved > 0 && 'unresolved intents',
].filter(Boolean);
out(missed.length ? `MISSED: ${missed.join(', ')}` : 'all targets met');
process.exitCode = missed.length ? 1 : 0;
