/**
 * Streams soak: a compressed run of PollingMarketSource over an in-process simulated platform (no
 * HTTP) on a test clock — four streams at 1 Hz for 1,000,000 responses (≈ 69 simulated hours,
 * ≈ 1.25 million market events), with a MarketStore and indicators consuming them. Reports the
 * heap slope after GC in bytes per event (first 20% of samples discarded; target ≤ 1) and the
 * time from a response arriving to the updated snapshot reaching a subscriber, p50 and p99.
 * Runs in a child `node --expose-gc` process. Run: `npm run bench -- streams-soak`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('./streams-soak-run.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface SoakResult {
  readonly responses: number;
  readonly events: number;
  readonly simulatedHours: number;
  readonly wallMs: number;
  readonly heapStart: number;
  readonly heapEnd: number;
  readonly bytesPerEvent: number;
  readonly latencySamples: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly health: ReadonlyArray<{ stream: string; polls: number; errors: number }>;
}

export async function run(responses = Number(process.env.STREAMS_SOAK_RESPONSES ?? 1_000_000)): Promise<void> {
  const args = ['--import', 'tsx', '--expose-gc', SCRIPT, String(responses)];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, timeout: 1_800_000, maxBuffer: 16 * 1024 * 1024 });
  const r = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as SoakResult;
  const mb = (b: number): string => (b / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `${r.responses.toLocaleString('en-US')} responses, ${r.events.toLocaleString('en-US')} events, ${r.simulatedHours.toFixed(1)} simulated hours in ${(r.wallMs / 1000).toFixed(1)} s ` +
      `(${Math.round(r.responses / (r.wallMs / 1000)).toLocaleString('en-US')} responses/s)\n` +
      `heap after GC: ${mb(r.heapStart)} MB → ${mb(r.heapEnd)} MB; slope ${r.bytesPerEvent.toFixed(3)} bytes/event (first 20% discarded; target ≤ 1)\n` +
      `response → snapshot at subscriber: p50 ${r.p50Us.toFixed(1)} µs, p99 ${r.p99Us.toFixed(1)} µs (${r.latencySamples.toLocaleString('en-US')} samples)\n` +
      `streams: ${r.health.map((h) => `${h.stream} ${h.polls.toLocaleString('en-US')} polls, ${h.errors} errors`).join('; ')}\n`,
  );
  // the target is checked, not only printed: `npm run bench` exits 1 when it is missed
  const errors = r.health.reduce((n, h) => n + h.errors, 0);
  const missed = [
    ...(r.bytesPerEvent > 1 ? [`heap slope ${r.bytesPerEvent.toFixed(3)} bytes/event > 1`] : []),
    ...(errors > 0 ? [`${errors} stream errors`] : []),
  ];
  process.stdout.write(missed.length ? `MISSED: ${missed.join(', ')}\n` : 'target met\n');
  if (missed.length) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
