import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxHttp } from '../support/sandbox-http.js';
import { firstLine } from '../support/child-lines.js';

const BIN = fileURLToPath(new URL('../../bin/tradeloop.js', import.meta.url));
const SPEED = 50;
/** The replayed BTCUSD price: 1000 at the file's start, rising 1 USD per second for two hours. */
const FILE_START = Date.UTC(2024, 0, 2, 0, 0, 0);
const rampAt = (sec: number): number => 1000 + sec;

interface Ticker {
  readonly best_bid: { readonly price: string };
  readonly best_ask: { readonly price: string };
  readonly last_day: { readonly open: string; readonly low: string };
  readonly snapshot_at: string;
}

/**
 * `tradeloop sandbox --speed 50 --replay BTCUSD=FILE`, spawned as users run it: the simulated clock
 * (read from the server's own timestamps) runs about 50 times faster than the wall clock, and the
 * BTCUSD market follows the CSV file on that clock. Bounds are generous ratios, not exact times.
 */
describe('tradeloop sandbox --speed and --replay', () => {
  let child: ChildProcess;
  let http: SandboxHttp;
  let dir: string;
  let spawnedAt: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-replay-'));
    const csv = join(dir, 'btc.csv');
    const rows = ['timestamp,price'];
    for (let sec = 0; sec <= 7200; sec += 60) rows.push(`${new Date(FILE_START + sec * 1000).toISOString()},${rampAt(sec)}`);
    writeFileSync(csv, `${rows.join('\n')}\n`);
    spawnedAt = Date.now();
    child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--speed', String(SPEED), '--replay', `BTCUSD=${csv}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await firstLine(child);
    expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    http = new SandboxHttp(line.slice('sandbox listening on '.length));
  });
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const ticker = async (market: string): Promise<Ticker> => (await http.get<Ticker>(`/v2/markets/${market}/ticker`)).body;
  const mid = (t: Ticker): number => (Number(t.best_bid.price) + Number(t.best_ask.price)) / 2;

  it('runs the simulated clock about --speed times faster than the wall clock', async () => {
    const w0 = Date.now();
    const first = await ticker('ETHUSD');
    const w1 = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    const w2 = Date.now();
    const second = await ticker('ETHUSD');
    const w3 = Date.now();
    const simulated = Date.parse(second.snapshot_at) - Date.parse(first.snapshot_at);
    // The server read its clock somewhere inside each request: between w1 - w2 and w3 - w0 of wall time passed.
    expect(simulated).toBeGreaterThan((SPEED / 2) * (w2 - w1));
    expect(simulated).toBeLessThan(SPEED * 2 * (w3 - w0));
    // Simulated time started at the wall time of the start and has run ahead of it since.
    expect(Date.parse(second.snapshot_at)).toBeGreaterThan(w3);
  });

  it('serves BTCUSD from the replayed file: history opens at the first price and the mid follows the ramp', async () => {
    const first = await ticker('BTCUSD');
    await new Promise((r) => setTimeout(r, 600));
    const second = await ticker('BTCUSD');
    // Before the file starts the price is the file's first price (the synthetic BTCUSD would be near 60000).
    expect(first.last_day.open).toBe('1000.00');
    expect(first.last_day.low).toBe('1000.00');
    // The file starts when the sandbox starts: at most the simulated seconds since the spawn have passed in it.
    const sinceSpawn = (Date.parse(first.snapshot_at) - spawnedAt) / 1000;
    expect(mid(first)).toBeGreaterThanOrEqual(rampAt(0) - 2);
    expect(mid(first)).toBeLessThanOrEqual(rampAt(sinceSpawn) + 2);
    // Between the two reads the price moved as the file does over the simulated time between them.
    const elapsedSec = (Date.parse(second.snapshot_at) - Date.parse(first.snapshot_at)) / 1000;
    expect(elapsedSec).toBeGreaterThan(5);
    expect(Math.abs(mid(second) - mid(first) - elapsedSec)).toBeLessThan(3);
  });
});
