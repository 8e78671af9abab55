/**
 * Where the dense replay's time goes: runs sma-cross 50/200 over the 1,000,000-point walk several
 * times under V8's sampling profiler (`--cpu-prof`, in a child process), drops the first runs (the
 * JIT's warm-up), and prints self time by file and by function, and the inclusive time of the
 * intent path's stages per intent.
 *
 *   npx tsx bench/profile-replay.ts [runs=8] [skip=2]
 *
 * With NO_MONEY=1 the strategy has USD 0.001 to order with: every per-point step and no intent, the
 * baseline the intent path's cost is read against (compare the two listings file by file).
 *
 * With PROFILE_OUT=FILE the profile is kept there (open it in Chrome's DevTools, Performance tab).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const STAGES: readonly string[] = [
  'decide src/risk/gate.ts',
  'place src/exec/order-executor.ts',
  'placeOrderSync src/fills/point/venue.ts',
  'matchOpen src/fills/point/market.ts',
  'ingest src/exec/fill-tracker.ts',
  'onReport src/engine/engine.ts',
  'onReport src/strategy/position.ts',
  'enter src/strategy/position.ts',
  'exitAll src/strategy/position.ts',
  'add backtest/round-trips.ts',
  'recordDecision src/exec/memory-journal.ts',
  'forgetFinished src/exec/memory-journal.ts',
  'stamp src/engine/strategy-runner.ts',
  'emitAccount src/fills/point/replay-source.ts',
  'computeMetrics backtest/metrics.ts',
];

async function child(runs: number, skip: number): Promise<void> {
  const { walkSeries } = await import('./backtest-replay.js');
  const { runBacktest } = await import('../backtest/run.js');
  const { resolveParams } = await import('../src/strategy/index.js');
  const smaCross = (await import('../strategies/sma-cross.js')).default;
  const series = walkSeries(1_000_000);
  const params = resolveParams(smaCross, { fast: 50, slow: 200 });
  const out: { ms: number; intents: number; warm: boolean; start: number; end: number }[] = [];
  for (let i = 0; i < runs; i++) {
    // the profiler's clock: microseconds of the same monotonic clock as process.hrtime
    const start = Number(process.hrtime.bigint() / 1000n);
    const r = await runBacktest({ definition: smaCross, params, series, ...(process.env.NO_MONEY && { initial: { USD: '0.001' } }) });
    out.push({ ms: r.elapsedMs, intents: r.intents.length, warm: i >= skip, start, end: Number(process.hrtime.bigint() / 1000n) });
  }
  process.stdout.write(JSON.stringify(out));
}

function label(n: ProfileNode): string {
  const url = n.callFrame.url.replace(/^.*\/node_modules\//, 'nm/').replace(/^file:\/\/.*?\/(src|backtest|strategies|bench)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}`;
}

function analyse(file: string, runs: { ms: number; intents: number; warm: boolean; start: number; end: number }[]): void {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    nodes.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const warm = runs.filter((r) => r.warm);
  const self = new Map<number, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i]!;
    // warm runs only: samples taken while one of them ran
    if (!warm.some((r) => t >= r.start && t <= r.end)) continue;
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + (p.timeDeltas[i] ?? 0));
  }
  const byFile = new Map<string, number>();
  const byFn = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const n = nodes.get(id)!;
    const name = label(n);
    const fileName = name.slice(name.indexOf(' ') + 1) || n.callFrame.functionName;
    byFile.set(fileName, (byFile.get(fileName) ?? 0) + us);
    byFn.set(name, (byFn.get(name) ?? 0) + us);
    total += us;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(nodes.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + us);
    }
  }
  const perRun = (us: number): string => `${(us / 1000 / warm.length).toFixed(1).padStart(7)} ms/run`;
  const top = (m: Map<string, number>, n: number): string =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${perRun(v)}  ${k}`)
      .join('\n');
  const intents = warm.reduce((s, r) => s + r.intents, 0);
  const wall = warm.reduce((s, r) => s + r.ms, 0) / warm.length;
  process.stdout.write(
    `${warm.length} warm runs, ${wall.toFixed(0)} ms a run (wall, under the profiler), ${(intents / warm.length).toFixed(0)} intents a run; sampled ${(total / 1000 / warm.length).toFixed(0)} ms a run\n`,
  );
  process.stdout.write(`self time by file\n${top(byFile, 40)}\nself time by function\n${top(byFn, 40)}\n`);
  process.stdout.write('intent-path stages, inclusive, per intent\n');
  for (const s of STAGES) {
    const us = inclusive.get(s);
    if (us !== undefined) process.stdout.write(`  ${(us / intents).toFixed(2).padStart(6)} µs  ${s}\n`);
  }
}

const [mode, a, b] = process.argv.slice(2);
if (mode === '--child') {
  await child(Number(a), Number(b));
} else {
  const runs = Number(mode ?? 8);
  const skip = Number(a ?? 2);
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-prof-'));
  try {
    const self = fileURLToPath(import.meta.url);
    const r = spawnSync(
      process.execPath,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval', '100', '--import', 'tsx', self, '--child', String(runs), String(skip)],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    if (r.status !== 0) throw new Error(`the profiled run exited with ${r.status}: ${r.stderr}`);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .sort();
    analyse(join(dir, files[0]!), JSON.parse(r.stdout) as Parameters<typeof analyse>[1]);
    if (process.env.PROFILE_OUT) copyFileSync(join(dir, files[0]!), process.env.PROFILE_OUT);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
