/**
 * Sandbox throughput: simple market-data requests per second (GetOrderBook, GetTicker) and order
 * create+cancel pairs per second, with p50/p99 latency, over keep-alive HTTP against a sandbox
 * started in-process on 127.0.0.1 (client and server share this one process, so the figures are
 * conservative). Targets: ≥ 2,000 req/s and ≥ 500 pairs/s. Also quote executions and internal
 * transfers per second, and the cost of a state snapshot (size, save, restore) after the run.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { TestClock } from '../src/clock/test-clock.js';
import { loadState, saveState, startSandbox } from '../src/sandbox/index.js';
import { SimPlatform } from '../src/sim/sim.js';

const CONNECTIONS = 16;
const WARMUP = 300;

interface Result {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** Runs `count` calls of `op` with `CONNECTIONS` in flight; returns rate and latency percentiles. */
async function measure(count: number, op: (i: number) => Promise<void>): Promise<Result> {
  const latencies = new Float64Array(count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      await op(i);
      latencies[i] = performance.now() - t;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - start) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: sorted[Math.floor(count * 0.5)]!, p99: sorted[Math.floor(count * 0.99)]! };
}

function line(name: string, r: Result, unit: string, target: number): string {
  const verdict = r.perSecond >= target ? 'ok' : 'BELOW TARGET';
  return `${name.padEnd(24)} ${r.perSecond.toFixed(0).padStart(7)} ${unit}/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   (target ≥ ${target} ${unit}/s: ${verdict})\n`;
}

async function expectOk(res: Promise<{ statusCode: number; body: { text(): Promise<string> } }>): Promise<string> {
  const r = await res;
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`unexpected ${r.statusCode}: ${text}`);
  return text;
}

/** Size and time of saving the whole state to a file and restoring a sim from it. */
function snapshotCost(sim: SimPlatform): void {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-bench-'));
  try {
    const file = join(dir, 'state.json');
    let t = performance.now();
    saveState(file, sim.snapshot());
    const saveMs = performance.now() - t;
    t = performance.now();
    const restored = new SimPlatform({ clock: new TestClock(sim.now()), restore: loadState(file)! });
    const restoreMs = performance.now() - t;
    const records = `${restored.orders().length} orders, ${restored.quoteExecutions().length} quote executions, ${restored.allTransfers().length} transfers`;
    process.stdout.write(
      `state snapshot: ${(statSync(file).size / 1_048_576).toFixed(1)} MB for ${records}; save ${saveMs.toFixed(0)} ms, restore ${restoreMs.toFixed(0)} ms\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, seed: 1, funding: { USD: '100000000' } });
  const pool = new Pool(sandbox.url, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  try {
    const form = 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret';
    const tokenText = await expectOk(
      pool.request({ method: 'POST', path: '/oauth2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
    );
    const auth = `Bearer ${(JSON.parse(tokenText) as { access_token: string }).access_token}`;
    const get = (path: string) => async (): Promise<void> => void (await expectOk(pool.request({ method: 'GET', path })));
    const pair = async (i: number): Promise<void> => {
      const body = JSON.stringify({
        side: 'BUY',
        market: 'ETHUSD',
        type: 'LIMIT',
        price: '100',
        base_amount: '0.01',
        ref_id: `bench-${i}-${Math.floor(performance.now() * 1000)}`,
      });
      const created = await expectOk(
        pool.request({
          method: 'POST',
          path: '/v2/profiles/default/orders',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body,
        }),
      );
      const id = (JSON.parse(created) as { id: string }).id;
      await expectOk(pool.request({ method: 'DELETE', path: `/v2/profiles/default/orders/${id}`, headers: { authorization: auth } }));
    };
    await measure(WARMUP, get('/v2/markets/BTCUSD/order-book'));
    await measure(WARMUP, get('/v2/markets/BTCUSD/ticker'));
    await measure(WARMUP, pair);
    process.stdout.write(line('GetOrderBook BTCUSD', await measure(10_000, get('/v2/markets/BTCUSD/order-book')), 'req', 2000));
    process.stdout.write(line('GetTicker BTCUSD', await measure(10_000, get('/v2/markets/BTCUSD/ticker')), 'req', 2000));
    process.stdout.write(line('CreateOrder+CancelOrder', await measure(4_000, pair), 'pairs', 500));
    const post = async (path: string, body: unknown): Promise<string> =>
      expectOk(
        pool.request({
          method: 'POST',
          path,
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const quoteExec = async (i: number): Promise<void> => {
      const quotes = await expectOk(pool.request({ method: 'GET', path: '/v2/quotes?markets=BTCUSD', headers: { authorization: auth } }));
      const buy = (JSON.parse(quotes) as { items: Array<{ id: string; side: string }> }).items.find((q) => q.side === 'BUY')!;
      await post('/v2/profiles/default/quote-executions', { quote_id: buy.id, quote_amount: '10.00', ref_id: `bench-qe-${i}` });
    };
    process.stdout.write(line('ListQuotes+QuoteExecution', await measure(4_000, quoteExec), 'pairs', 500));
    const bot = (JSON.parse(await post('/v2/profiles', { nickname: 'bench-bot' })) as { id: string }).id;
    const transfer = async (i: number): Promise<void> =>
      void (await post('/v2/transfer/internal', {
        from_profile_id: 'default',
        to_profile_id: bot,
        asset: 'USD',
        amount: '1',
        ref_id: `bench-t-${i}`,
      }));
    process.stdout.write(line('CreateInternalTransfer', await measure(4_000, transfer), 'req', 500));
    snapshotCost(sandbox.sim);
    const heapMb = process.memoryUsage().heapUsed / 1_048_576;
    process.stdout.write(`heap after run: ${heapMb.toFixed(0)} MB; orders in sim: ${sandbox.sim.orders().length}\n`);
  } finally {
    await pool.close();
    await sandbox.close();
  }
}
