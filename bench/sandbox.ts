/**
 * Sandbox throughput: simple market-data requests per second (GetOrderBook, GetTicker) and order
 * create+cancel pairs per second, with p50/p99 latency, over keep-alive HTTP against a sandbox
 * started in-process on 127.0.0.1 (client and server share this one process, so the figures are
 * conservative). Targets: ≥ 2,000 req/s and ≥ 500 pairs/s.
 */
import { Pool } from 'undici';
import { startSandbox } from '../src/sandbox/index.js';

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

export async function run(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, seed: 1, funding: { USD: '100000000' } });
  const pool = new Pool(sandbox.url, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  try {
    const form = 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret';
    const tokenText = await expectOk(pool.request({ method: 'POST', path: '/oauth2/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }));
    const auth = `Bearer ${(JSON.parse(tokenText) as { access_token: string }).access_token}`;
    const get = (path: string) => async (): Promise<void> => void (await expectOk(pool.request({ method: 'GET', path })));
    const pair = async (i: number): Promise<void> => {
      const body = JSON.stringify({ side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '100', base_amount: '0.01', ref_id: `bench-${i}-${Math.floor(performance.now() * 1000)}` });
      const created = await expectOk(pool.request({ method: 'POST', path: '/v2/profiles/default/orders', headers: { authorization: auth, 'content-type': 'application/json' }, body }));
      const id = (JSON.parse(created) as { id: string }).id;
      await expectOk(pool.request({ method: 'DELETE', path: `/v2/profiles/default/orders/${id}`, headers: { authorization: auth } }));
    };
    await measure(WARMUP, get('/v2/markets/BTCUSD/order-book'));
    await measure(WARMUP, get('/v2/markets/BTCUSD/ticker'));
    await measure(WARMUP, pair);
    process.stdout.write(line('GetOrderBook BTCUSD', await measure(10_000, get('/v2/markets/BTCUSD/order-book')), 'req', 2000));
    process.stdout.write(line('GetTicker BTCUSD', await measure(10_000, get('/v2/markets/BTCUSD/ticker')), 'req', 2000));
    process.stdout.write(line('CreateOrder+CancelOrder', await measure(4_000, pair), 'pairs', 500));
    const heapMb = process.memoryUsage().heapUsed / 1_048_576;
    process.stdout.write(`heap after run: ${heapMb.toFixed(0)} MB; orders in sim: ${sandbox.sim.orders().length}\n`);
  } finally {
    await pool.close();
    await sandbox.close();
  }
}
