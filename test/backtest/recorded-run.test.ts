/**
 * A recorded live run as backtest data: the points of the strategy's market come out of the stream
 * recording through the live decoder; the same prices recorded or in a CSV give the same backtest;
 * books stand in when prices were not polled; bad lines are named; and a recording made by the
 * polling streams against the local sandbox (127.0.0.1, port 0) replays through `tradeloop backtest`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRecordingFile, loadRecordedSeries } from '../../backtest/recorded-series.js';
import { LOCAL_CLIENT_SECRET } from '../../src/config/index.js';
import { SecretSet } from '../../src/log/index.js';
import { PriceDataError } from '../../src/sim/prices/price-file.js';
import { JsonLinesRecorder, PollingMarketSource } from '../../src/venue/index.js';
import { runCli } from '../cli/cli-helpers.js';
import { T0, startTestSandbox } from '../support/sandbox-fixture.js';
import { loggedClient, quiet, stepClock } from '../support/streams-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-recorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const START = Date.UTC(2024, 0, 1);
const PRICES = [10, 10, 10, 12, 15, 11, 8, 8, 9];
const HEADER = JSON.stringify({ format: 'tradeloop-stream-recording', version: 1 });

type Line = { at: number; stream: string; body: unknown };

function write(name: string, lines: readonly Line[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[HEADER, ...lines.map((l) => JSON.stringify(l))].join('\n')}\n`);
  return path;
}

function pricesBody(at: number, btc: number): unknown {
  return {
    items: [
      { market: 'BTCUSD', current_price: String(btc), snapshot_at: new Date(at).toISOString() },
      { market: 'ETHUSD', current_price: '2000', snapshot_at: new Date(at).toISOString() },
    ],
  };
}

function bookBody(bid: number, ask: number): unknown {
  return { market: 'BTCUSD', bids: [{ price: String(bid), amount: '1' }], asks: [{ price: String(ask), amount: '1' }] };
}

/** The CSV test's prices as a recording: a prices response each hour, with balances between. */
const recording = write(
  'run.jsonl',
  PRICES.flatMap((p, i) => [
    { at: START + i * HOUR, stream: 'prices', body: pricesBody(START + i * HOUR, p) },
    { at: START + i * HOUR + 5, stream: 'balances', body: { items: [{ asset: 'USD', available: '10000', trading: '0' }] } },
  ]),
);

describe('recorded runs as backtest data', () => {
  it('takes the points of the market from the prices stream, at the recorded receive times', async () => {
    expect(isRecordingFile(recording)).toBe(true);
    const s = await loadRecordedSeries(recording, 'BTCUSD');
    expect(s.length).toBe(PRICES.length);
    expect([...s.prices]).toEqual(PRICES);
    expect([...s.times]).toEqual(PRICES.map((_, i) => START + i * HOUR));
    expect(s.source).toContain('recorded BTCUSD prices');
    const eth = await loadRecordedSeries(recording, 'ETHUSD');
    expect([...eth.prices]).toEqual(PRICES.map(() => 2000));
  });

  it('gives the same backtest as the same prices in a CSV file', async () => {
    const csv = join(dir, 'same.csv');
    writeFileSync(csv, `timestamp,price\n${PRICES.map((p, i) => `${START + i * HOUR},${p}`).join('\n')}\n`);
    const args = ['backtest', '--strategy', 'sma-cross', '--params', 'fast=2,slow=3', '--json'];
    const fromCsv = await runCli([...args, '--data', csv]);
    const fromRecording = await runCli([...args, '--data', recording]);
    expect(fromRecording.code).toBe(0);
    const [a, b] = [JSON.parse(fromCsv.stdout), JSON.parse(fromRecording.stdout)];
    expect(b).toMatchObject({ points: 9, trades: 1, final_equity: 5322.67 });
    for (const k of ['points', 'trades', 'final_equity', 'fees', 'return_pct', 'max_drawdown_pct', 'sharpe']) expect(b[k]).toEqual(a[k]);
  });

  it('uses order-book mids when the run did not poll prices, and says so', async () => {
    const path = write('books.jsonl', [
      { at: START, stream: 'book:BTCUSD', body: bookBody(99, 101) },
      { at: START + 1000, stream: 'book:BTCUSD', body: bookBody(100, 104) },
      {
        at: START + 2000,
        stream: 'ticker:BTCUSD',
        body: { market: 'BTCUSD', best_bid: { price: '1', amount: '1' }, best_ask: { price: '3', amount: '1' } },
      },
    ]);
    const s = await loadRecordedSeries(path, 'BTCUSD');
    expect([...s.prices]).toEqual([100, 102]);
    expect(s.source).toContain('book mids');
  });

  it('names every bad line: out of time order, a repeated time, a body that does not decode, an unknown stream', async () => {
    const path = write('bad.jsonl', [
      { at: START + 2000, stream: 'prices', body: pricesBody(START, 10) },
      { at: START + 1000, stream: 'prices', body: pricesBody(START, 11) },
      { at: START + 1000, stream: 'prices', body: pricesBody(START, 12) },
      { at: START + 3000, stream: 'prices', body: { nothing: true } },
      { at: START + 4000, stream: 'telepathy', body: {} },
    ]);
    const err = await loadRecordedSeries(path, 'BTCUSD').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PriceDataError);
    const message = (err as Error).message;
    expect(message).toMatch(/4 problems/);
    expect(message).toMatch(/line 3: time 2024-01-01T00:00:01\.000Z is earlier than the point before it \(line 2\)/);
    expect(message).toMatch(/line 4: a second point at 2024-01-01T00:00:01\.000Z \(line 3 has the same time\)/);
    expect(message).toMatch(/line 5: the prices response does not decode/);
    expect(message).toMatch(/line 6: unknown stream "telepathy"/);
    const cli = await runCli(['backtest', '--strategy', 'sma-cross', '--data', path]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/line 3: time/);
  });

  it('refuses a market the recording never saw, naming the markets it has and the fix', async () => {
    await expect(loadRecordedSeries(recording, 'SOLUSD')).rejects.toThrow(
      /prices for BTCUSD, ETHUSD only, none for SOLUSD: record a run that subscribes to SOLUSD/,
    );
    const cli = await runCli(['backtest', '--strategy', 'sma-cross', '--params', 'market=SOLUSD', '--data', recording]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/none for SOLUSD/);
  });

  it('replays a recording the polling streams made of a live sandbox run', { timeout: 60_000 }, async () => {
    const path = join(dir, 'live.jsonl');
    const sb = await startTestSandbox();
    const secrets = new SecretSet();
    secrets.add(LOCAL_CLIENT_SECRET);
    const client = loggedClient(sb.clock, { apiUrl: sb.handle.apiUrl, tokenUrl: sb.handle.tokenUrl, secrets });
    const recorder = new JsonLinesRecorder(path, { secrets });
    const source = new PollingMarketSource({ api: client.api, clock: sb.clock, profileId: sb.handle.sim.profiles.defaultId, recorder });
    source.start([{ market: 'BTCUSD', kinds: new Set(['price', 'book'] as const) }]);
    await stepClock(sb.clock, 120_000, 1_000, quiet(source, client));
    await source.stop();
    await recorder.close();
    await client.api.close();
    await sb.close();
    const recorded = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as Line)
      .filter((l) => l.stream === 'prices');
    const s = await loadRecordedSeries(path, 'BTCUSD');
    expect(recorded.length).toBeGreaterThan(50);
    expect(s.length).toBe(recorded.length);
    expect([...s.times]).toEqual(recorded.map((l) => l.at));
    expect(s.times[0]).toBeGreaterThanOrEqual(T0);
    expect(new Set(s.prices)).toEqual(new Set([60_000, 59_000])); // the sandbox's scripted step
    const cli = await runCli([
      'backtest',
      '--strategy',
      'sma-cross',
      '--params',
      'fast=3,slow=10',
      '--data',
      path,
      '--fill-model',
      'points',
      '--json',
    ]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ points: recorded.length, market: 'BTCUSD' });
    // the run polled books too: by default the recording replays on the book fill model, marked at every recorded time
    const book = await runCli(['backtest', '--strategy', 'sma-cross', '--params', 'fast=3,slow=10', '--data', path, '--json']);
    expect(book.code).toBe(0);
    const out = JSON.parse(book.stdout);
    expect(out.manifest.fill_model).toBe('book');
    expect(out.points).toBe(
      new Set(
        readFileSync(path, 'utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => JSON.parse(l) as Line)
          .filter((l) => l.stream === 'prices' || l.stream === 'book:BTCUSD')
          .map((l) => l.at),
      ).size,
    );
  });
});
