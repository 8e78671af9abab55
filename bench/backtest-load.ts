/**
 * Loading price data for a backtest (issue 7's target: 1,000,000 CSV points in under 2 s). Generates
 * seeded million-point files in a temp dir — `timestamp,price` with epoch ms, and OHLCV with RFC 3339
 * timestamps — loads each through `loadPriceSeries` (read + parse, best of three), and prints the time
 * and points per second beside a naive split-and-Date.parse loader measured in the same run. Also times
 * the same points as List Historical Prices JSON and writing a million-point report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { computeMetrics } from '../backtest/metrics.js';
import { DEFAULT_FILL_RULE, writeBacktestReport } from '../backtest/report/report.js';
import { Rng } from '../src/core/index.js';
import { loadPriceSeries } from '../src/sim/prices/price-file.js';

const POINTS = 1_000_000;
const START_MS = Date.UTC(2020, 0, 1);
const STEP_MS = 60_000;

export function walk(points: number, seed: number): Float64Array {
  const rng = new Rng(seed);
  const prices = new Float64Array(points);
  let p = 30_000;
  for (let i = 0; i < points; i++) prices[i] = p *= Math.exp(0.002 * (rng.next() - 0.5));
  return prices;
}

export function generate(dir: string, prices: Float64Array): Record<'epoch' | 'ohlcv' | 'json', string> {
  const epoch: string[] = ['timestamp,price'];
  const ohlcv: string[] = ['timestamp,open,high,low,close,volume'];
  const json: string[] = [];
  for (let i = 0; i < prices.length; i++) {
    const t = START_MS + i * STEP_MS;
    const close = prices[i]!.toFixed(2);
    const open = (prices[i - 1] ?? prices[i]!).toFixed(2);
    const high = (Math.max(Number(open), Number(close)) + 1.25).toFixed(2);
    const low = (Math.min(Number(open), Number(close)) - 1.25).toFixed(2);
    const iso = new Date(t).toISOString();
    epoch.push(`${t},${close}`);
    ohlcv.push(`${iso},${open},${high},${low},${close},${(i % 97) + 0.5}`);
    json.push(`{"average_price":"${close}","timestamp":"${iso}"}`);
  }
  const files = { epoch: join(dir, 'epoch.csv'), ohlcv: join(dir, 'ohlcv.csv'), json: join(dir, 'prices.json') };
  writeFileSync(files.epoch, `${epoch.join('\n')}\n`);
  writeFileSync(files.ohlcv, `${ohlcv.join('\n')}\n`);
  writeFileSync(files.json, `{"market":"BTCUSD","prices":[${json.join(',\n')}],"total_count":${prices.length}}`);
  return files;
}

/** The obvious loader: split into lines and fields, Number() and Date.parse(). The comparison point. */
function naiveLoad(file: string): number {
  const lines = readFileSync(file, 'utf8').split('\n');
  const times = new Float64Array(lines.length);
  const prices = new Float64Array(lines.length);
  let n = 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const fields = lines[i]!.split(',');
    times[n] = Date.parse(fields[0]!);
    prices[n] = Number(fields[4] ?? fields[1]);
    n++;
  }
  return n;
}

function bestOf(runs: number, fn: () => number): { ms: number; points: number } {
  let best = Infinity;
  let points = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    points = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, points };
}

function line(label: string, file: string, result: { ms: number; points: number }): void {
  const mb = (statSync(file).size / 1e6).toFixed(1);
  const rate = Math.round(result.points / (result.ms / 1000)).toLocaleString('en-US');
  process.stdout.write(
    `${label.padEnd(44)} ${result.points.toLocaleString('en-US')} points, ${mb.padStart(5)} MB: ` +
      `${result.ms.toFixed(0).padStart(5)} ms  ${rate.padStart(11)} points/s\n`,
  );
}

function reportWrite(dir: string, prices: Float64Array): void {
  const times = Float64Array.from({ length: prices.length }, (_, i) => START_MS + i * STEP_MS);
  const equity = Float64Array.from(prices, (p) => (10_000 * p) / prices[0]!);
  const metrics = computeMetrics({ times, equity, prices, trades: [] });
  const t0 = performance.now();
  const files = writeBacktestReport(join(dir, 'report'), {
    strategy: 'buy-and-hold',
    market: 'BTCUSD',
    times,
    prices,
    equity,
    trades: [],
    metrics,
    assumptions: { initial: 'USD=10000', feeBps: 10, slippageBps: 0, fillRule: DEFAULT_FILL_RULE },
  });
  const ms = performance.now() - t0;
  const kb = (statSync(files.html).size / 1024).toFixed(0);
  process.stdout.write(
    `${'write report (equity.csv + report.html)'.padEnd(44)} ${prices.length.toLocaleString('en-US')} points: ` +
      `${ms.toFixed(0)} ms, report.html ${kb} KB\n`,
  );
}

/**
 * `tradeloop backtest --json` on the OHLCV file, each in a fresh process as a user runs it (sma-cross
 * 50/200): its own replay and load times from the JSON, its peak RSS from a preloaded exit hook
 * (peak-rss.cjs). Three runs; the median of each figure. Issue 22's targets: replay ≥ 5 M points/s,
 * loading ≤ 300 ms, peak RSS ≤ 250 MB.
 */
function asAUserRunsIt(file: string): void {
  const bin = fileURLToPath(new URL('../bin/tradeloop.js', import.meta.url));
  const hook = fileURLToPath(new URL('./peak-rss.cjs', import.meta.url));
  const runs: Array<{ replay: number; load: number; rss: number; points: number; trades: number }> = [];
  for (let r = 0; r < 3; r++) {
    const child = spawnSync(
      process.execPath,
      ['--require', hook, bin, 'backtest', '-s', 'sma-cross', '-p', 'fast=50,slow=200', '--data', file, '--json'],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    if (child.status !== 0) {
      process.stdout.write(`tradeloop backtest --json: exited ${child.status}: ${child.stderr.trim().split('\n').slice(-1)[0] ?? ''}\n`);
      return;
    }
    const out = JSON.parse(child.stdout) as { elapsed_ms: number; load_ms: number; points: number; trades: number };
    const rss = JSON.parse(child.stderr.trim().split('\n').at(-1)!) as { peakRssMb: number };
    runs.push({ replay: out.elapsed_ms, load: out.load_ms, rss: rss.peakRssMb, points: out.points, trades: out.trades });
  }
  const med = (k: 'replay' | 'load' | 'rss'): number => runs.map((x) => x[k]).sort((a, b) => a - b)[1]!;
  const { points, trades } = runs[0]!;
  process.stdout.write(
    `tradeloop backtest --json, sma-cross 50/200 on that OHLCV file (fresh process each, median of 3; ${trades} round trips):\n`,
  );
  process.stdout.write(
    `  replay ${med('replay').toFixed(0)} ms: ${Math.round(points / (med('replay') / 1000)).toLocaleString('en-US')} points/s; ` +
      `loading ${med('load').toFixed(0)} ms; peak RSS ${med('rss').toFixed(0)} MB\n`,
  );
  process.stdout.write('  target: replay ≥ 5,000,000 points/s, loading ≤ 300 ms, peak RSS ≤ 250 MB\n');
}

/** Generates the files, measures, prints, and removes the temp dir. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-bench-load-'));
  try {
    const prices = walk(POINTS, 42);
    const files = generate(dir, prices);
    line(
      'loadPriceSeries CSV timestamp,price (epoch ms)',
      files.epoch,
      bestOf(3, () => loadPriceSeries(files.epoch).length),
    );
    line(
      'loadPriceSeries CSV OHLCV (RFC 3339)',
      files.ohlcv,
      bestOf(3, () => loadPriceSeries(files.ohlcv).length),
    );
    line(
      'naive split + Date.parse, OHLCV (baseline)',
      files.ohlcv,
      bestOf(3, () => naiveLoad(files.ohlcv)),
    );
    line(
      'loadPriceSeries JSON (List Historical Prices)',
      files.json,
      bestOf(3, () => loadPriceSeries(files.json).length),
    );
    reportWrite(dir, prices);
    process.stdout.write(`target: 1,000,000 CSV points in < 2000 ms; rss now ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB\n`);
    asAUserRunsIt(files.ohlcv);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
