/**
 * The soak itself, run by bench/streams-soak.ts in a child `node --expose-gc` process: a
 * PollingMarketSource over an in-process SimPlatform (no HTTP) on a TestClock, four streams at
 * 1 Hz (ticker, book, prices, quotes of BTCUSD, phases 250 ms apart), a MarketStore and a set of
 * indicators fed from it, for 1,000,000 responses (≈ 69 simulated hours). Prints one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { flushMicrotasks, TestClock } from '../src/clock/index.js';
import { BollingerBands, Ema, Macd, Rsi, Sma } from '../src/indicators/index.js';
import { SimPlatform } from '../src/sim/sim.js';
import { MarketStore } from '../src/state/index.js';
import { PollingMarketSource, type MarketSubscription } from '../src/venue/index.js';
import { simMarketDataApi } from '../test/support/streams-sim-api.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const RESPONSES = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = 50;
const T0 = Date.UTC(2025, 0, 6, 0, 0, 0);
const STREAMS: ReadonlyArray<MarketSubscription['kinds'] extends ReadonlySet<infer K> ? K : never> = ['ticker', 'book', 'price', 'quote'];

const clock = new TestClock(T0);
const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '100000' } });
let responses = 0;
let respondedAt = -1;
const api = simMarketDataApi(sim, {
  onRespond: () => {
    responses++;
    respondedAt = performance.now();
  },
});
const source = new PollingMarketSource({ api, clock, intervals: { tickerMs: 1_000, bookMs: 1_000, pricesMs: 1_000, quotesMs: 1_000 } });
const store = new MarketStore(clock, { historyCapacity: 2_048 });
const indicators = {
  sma: new Sma(20),
  ema: new Ema(50),
  rsi: new Rsi(14),
  bb: new BollingerBands({ period: 20, stdDev: 2 }),
  macd: new Macd(),
};
const latencyMs = new Float64Array(RESPONSES + 16);
let latencies = 0;
let events = 0;
let signal = 0;
source.events$.subscribe((e) => {
  events++;
  store.apply(e);
});
store.select$('BTCUSD').subscribe((s) => {
  if (respondedAt >= 0) {
    latencyMs[latencies++] = performance.now() - respondedAt;
    respondedAt = -1;
  }
  const p = s.price?.value;
  if (p === undefined) return;
  signal += (indicators.sma.update(p) ?? 0) + (indicators.ema.update(p) ?? 0) + (indicators.rsi.update(p) ?? 0);
  signal += (indicators.bb.update(p) ?? 0) + (indicators.macd.update(p) ?? 0);
});

/** Starts the four streams 250 ms apart so each response runs through the pipeline on its own. */
async function startStaggered(): Promise<void> {
  const subs: MarketSubscription[] = [];
  for (const kind of STREAMS) {
    subs.push({ market: 'BTCUSD', kinds: new Set([kind]) });
    source.start([...subs]);
    await settle();
    clock.advance(250);
  }
}

async function settle(): Promise<void> {
  await flushMicrotasks(20);
  while (source.pendingRequests() > 0) await flushMicrotasks(5);
}

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return num / den;
}

await startStaggered();
const sampleEvery = Math.floor(RESPONSES / SAMPLES);
const xs: number[] = [];
const ys: number[] = [];
const wallStart = performance.now();
let nextSample = sampleEvery;
while (responses < RESPONSES) {
  clock.advance(250);
  await settle();
  if (responses >= nextSample) {
    xs.push(events);
    ys.push(heapAfterGc());
    nextSample += sampleEvery;
  }
}
const wallMs = performance.now() - wallStart;
const health = source.health().map((h) => ({ stream: h.stream, polls: h.polls, errors: h.consecutiveErrors }));
await source.stop();
const keep = Math.floor(xs.length * 0.2);
const sorted = latencyMs.slice(0, latencies).sort();
const pct = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
process.stdout.write(
  `${JSON.stringify({
    responses,
    events,
    simulatedHours: (clock.now() - T0) / 3_600_000,
    wallMs,
    heapSamplesKiB: ys.map((y) => Math.round(y / 1024)),
    heapStart: ys[0],
    heapEnd: ys.at(-1),
    bytesPerEvent: slope(xs.slice(keep), ys.slice(keep)),
    latencySamples: latencies,
    p50Us: pct(0.5) * 1_000,
    p99Us: pct(0.99) * 1_000,
    health,
    historyLength: store.history('BTCUSD').length,
    signal: Number.isFinite(signal),
  })}\n`,
);
