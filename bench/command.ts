/**
 * The `tradeloop` command as a user runs it: each figure is a fresh process's whole wall (start,
 * loading, work, exit) and peak RSS, medians of interleaved rounds, read as ratios to `node -e 1` and to
 * the plain Float64Array loop script (bench/plain-loop.mjs) measured in the same run, so they compare
 * across machines. Goals: `--help` ≤ 2× `node -e 1` and ≤ 60 MB; a journal view and `ctl status` ≤ 3×;
 * `backtest --json` on the 1,000,000-row OHLCV file no slower than the plain script on the same file;
 * `run` (embedded sandbox) sends its first price poll within 5× `node -e 1` of its start; the same backtest
 * with `--price-column close` costs no more wall or memory than without it (a journal view of two runs
 * is timed beside the small journal's, as what grows with the journal shows there). A command's own
 * `--help` (backtest's, run's) loads its flags alone and is held to the program's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Journal } from '../src/exec/index.js';
import { distProblem } from '../bin/dist-check.js';
import { generate, walk } from './backtest-load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'tradeloop.js');
const PEAK_RSS = join(ROOT, 'bench', 'peak-rss.cjs');
const FIRST_REQUEST = pathToFileURL(join(ROOT, 'bench', 'first-request.mjs')).href;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Sample {
  readonly ms: number;
  readonly rssMb: number;
}

/** One fresh process: wall from spawn to exit, and its own peak RSS (bench/peak-rss.cjs). */
function once(args: readonly string[], cwd = ROOT): Sample {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--require', PEAK_RSS, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...process.env, NO_COLOR: '1', TRADELOOP_UI_TOKEN: 'bench' },
  });
  const ms = performance.now() - t0;
  const rss = /\{"peakRssMb":([\d.]+)\}\s*$/.exec(r.stderr);
  if (rss === null) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  return { ms, rssMb: Number(rss[1]) };
}

/** `tradeloop run` on the embedded sandbox in a fresh folder: ms from spawn to its first price poll. */
async function runToFirstPoll(): Promise<number> {
  const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-bench-run-'));
  try {
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--import', FIRST_REQUEST, BIN, 'run', '--duration', '60s', '--json'], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const at = await new Promise<number>((done, fail) => {
      child.stderr.setEncoding('utf8').on('data', (s: string) => {
        err += s;
        for (const m of err.matchAll(/\{"request":"([^"]*)","at":(\d+)\}/g)) if (/\/prices(\?|$)/.test(m[1]!)) done(Number(m[2]) - t0);
      });
      child.on('close', (code) => fail(new Error(`tradeloop run exited ${code} before polling prices: ${err.slice(-2000)}`)));
    });
    const closed = new Promise((done) => child.on('close', done));
    child.kill('SIGINT');
    await closed;
    return at;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A journal of `runs` runs of `orders` filled market orders each (with their request and status events). */
export function journalOf(dir: string, name: string, runs: number, orders: number): string {
  const file = join(dir, name);
  const j = new Journal(file);
  for (let run = 0; run < runs; run++) {
    j.setMeta('run.start_equity', JSON.stringify({ asset: 'USD', value: '10000', at: 1_700_000_000_000 + run * 86_400_000 }));
    for (let i = 0; i < orders; i++) {
      const at = 1_700_000_000_000 + run * 86_400_000 + i * 60_000;
      const side = i % 2 === 0 ? 'BUY' : 'SELL';
      const ref = `run${run}-${i}`;
      j.recordDecision(
        {
          kind: 'approve',
          at,
          intent: {
            kind: 'place-order',
            intentId: ref,
            strategy: run % 2 ? 'sma-eth' : 'sma-cross',
            market: run % 2 ? 'ETHUSD' : 'BTCUSD',
            side,
            type: 'MARKET',
            ...(side === 'BUY' ? { quoteAmount: '100.00' } : { baseAmount: '0.001' }),
          },
        },
        { at, request: { ref } },
      );
      j.update(ref, at + 100, 'done', { venueId: `o-${ref}`, status: 'FILLED', amountFilled: '0.001' }, { type: 'status' });
      j.recordFill({
        fillId: `f-${ref}`,
        refId: ref,
        orderId: `o-${ref}`,
        market: run % 2 ? 'ETHUSD' : 'BTCUSD',
        side,
        amount: '0.001',
        price: String(99_900 + (i % 50)),
        commission: '0.1',
        commissionAsset: 'USD',
        at: at + 100,
      });
    }
  }
  j.checkpoint();
  j.close();
  return file;
}

const line = (label: string, s: Sample, base: Sample, goal: string): void => {
  const rss = Number.isNaN(s.rssMb) ? '    -' : s.rssMb.toFixed(0).padStart(4);
  process.stdout.write(
    `${label.padEnd(44)} ${(s.ms / 1000).toFixed(3).padStart(7)} s  ${rss} MB  ${(s.ms / base.ms).toFixed(2).padStart(6)}×  ${goal}\n`,
  );
};

export async function run(): Promise<void> {
  const problem = distProblem();
  if (problem !== undefined) process.stdout.write(`note: ${problem}: the command runs from its sources in these figures\n`);
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-bench-command-'));
  try {
    const { ohlcv } = generate(dir, walk(1_000_000, 7));
    const journal = journalOf(dir, 'small.sqlite', 1, 20);
    const runs = journalOf(dir, 'runs.sqlite', 2, 5_000);
    const cases: Record<string, readonly string[]> = {
      'node -e 1': ['-e', '1'],
      'tradeloop --help': [BIN, '--help'],
      'tradeloop backtest --help': [BIN, 'backtest', '--help'],
      'tradeloop run --help': [BIN, 'run', '--help'],
      'tradeloop orders (20-row journal)': [BIN, 'orders', '--journal', journal],
      'tradeloop positions (20-row journal)': [BIN, 'positions', '--journal', journal],
      'tradeloop positions (2 runs, 10,000 fills)': [BIN, 'positions', '--journal', runs],
      'tradeloop orders (2 runs, 10,000 orders)': [BIN, 'orders', '--journal', runs],
      'tradeloop ctl status (no bot answers)': [BIN, 'ctl', 'status', '--url', 'http://127.0.0.1:59327'],
      'plain loop script (1,000,000 rows)': [join(ROOT, 'bench', 'plain-loop.mjs'), ohlcv, '50', '200', '10'],
      'tradeloop backtest --json (same file)': [
        BIN,
        'backtest',
        '--strategy',
        'sma-cross',
        '--data',
        ohlcv,
        '--params',
        'fast=50,slow=200',
        '--fee-bps',
        '10',
        '--json',
      ],
      'the same with --price-column close': [
        BIN,
        'backtest',
        '--strategy',
        'sma-cross',
        '--data',
        ohlcv,
        '--price-column',
        'close',
        '--params',
        'fast=50,slow=200',
        '--fee-bps',
        '10',
        '--json',
      ],
    };
    const samples = new Map<string, Sample[]>(Object.keys(cases).map((k) => [k, []]));
    const firstPoll: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, args] of Object.entries(cases)) samples.get(label)!.push(once(args));
      firstPoll.push(await runToFirstPoll());
    }
    const med = new Map([...samples].map(([k, v]) => [k, { ms: median(v.map((s) => s.ms)), rssMb: median(v.map((s) => s.rssMb)) }]));
    const node = med.get('node -e 1')!;
    const plain = med.get('plain loop script (1,000,000 rows)')!;
    process.stdout.write(`fresh processes, medians of ${ROUNDS} interleaved rounds; ratios to node -e 1 unless said\n`);
    line('node -e 1', node, node, '');
    line('tradeloop --help', med.get('tradeloop --help')!, node, 'goal ≤ 2×, ≤ 60 MB');
    // a command's own --help loads its flags, not its code (X-action.ts): as quick as the program's
    for (const k of ['tradeloop backtest --help', 'tradeloop run --help']) line(k, med.get(k)!, node, 'as --help: ≤ 2×');
    for (const k of [
      'tradeloop orders (20-row journal)',
      'tradeloop positions (20-row journal)',
      'tradeloop positions (2 runs, 10,000 fills)',
      'tradeloop orders (2 runs, 10,000 orders)',
      'tradeloop ctl status (no bot answers)',
    ])
      line(k, med.get(k)!, node, 'goal ≤ 3×');
    line('tradeloop run: first price poll', { ms: median(firstPoll), rssMb: Number.NaN }, node, 'goal ≤ 5× (embedded sandbox)');
    line('plain loop script (1,000,000 rows)', plain, node, '');
    const bt = med.get('tradeloop backtest --json (same file)')!;
    line('tradeloop backtest --json (same file)', bt, node, '');
    process.stdout.write(`backtest --json / plain loop script: ${(bt.ms / plain.ms).toFixed(2)}× (goal ≤ 1×)\n`);
    const col = med.get('the same with --price-column close')!;
    line('the same with --price-column close', col, node, '');
    process.stdout.write(
      `--price-column close / without: ${(col.ms / bt.ms).toFixed(2)}× the wall, ${(col.rssMb / bt.rssMb).toFixed(2)}× the peak RSS (goal ≤ 1× both)\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
