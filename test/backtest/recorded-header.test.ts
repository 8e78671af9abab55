/**
 * A recording's header says what the recorded run was: the recorder writes it (redacted like every
 * line), the reader gives it back, a recording without it reads as before, a malformed one is
 * refused naming the field, and `tradeloop backtest --data RECORDING` prints what it holds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRunInfo, describeRunInfo } from '../../backtest/recorded-header.js';
import { loadRecordedSeries } from '../../backtest/recorded-series.js';
import { SecretSet } from '../../src/log/index.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/index.js';
import { JsonLinesRecorder } from '../../src/venue/index.js';
import { readRecording, readRecordingHeader } from '../../src/venue/polling/recording-reader.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-recorded-header-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const START = Date.UTC(2024, 0, 1);
const PRICES = [10, 10, 10, 12, 15, 11, 8, 8, 9];

function pricesBody(at: number, btc: number): unknown {
  return { items: [{ market: 'BTCUSD', current_price: String(btc), snapshot_at: new Date(at).toISOString() }] };
}

async function record(name: string, run: Parameters<typeof buildRunInfo>[0] | undefined, secrets?: SecretSet): Promise<string> {
  const path = join(dir, name);
  const rec = new JsonLinesRecorder(path, { ...(run && { run: buildRunInfo(run) }), ...(secrets && { secrets }) });
  PRICES.forEach((p, i) => rec.write({ at: START + i * HOUR, stream: 'prices', body: pricesBody(START + i * HOUR, p) }));
  await rec.close();
  return path;
}

const RUN = {
  strategies: [{ spec: 'sma-cross', name: 'sma-cross', params: { market: 'BTCUSD', fast: 2, slow: 3 } }],
  startedAt: START - 5,
  environment: 'sandbox',
  riskLimits: DEFAULT_RISK_LIMITS,
  fees: { taker_bps: '10', maker_bps: '5' },
  warmUp: {
    increment: 'ONE_MINUTE',
    points: 2,
    prices: {
      BTCUSD: [
        [START - 120_000, '9.5'],
        [START - 60_000, '9.75'],
      ] as [number, string][],
    },
  },
};

describe('recording header', () => {
  it('holds strategies, params, plugin hashes, risk limits, fees, version and warm-up, and reads back', async () => {
    const path = await record('with-run.jsonl', RUN);
    const run = await readRecordingHeader(path);
    expect(run).toBeDefined();
    expect(run!.tradeloopVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(run!.strategies[0]).toMatchObject({
      name: 'sma-cross',
      spec: 'sma-cross',
      builtin: true,
      params: { market: 'BTCUSD', fast: 2, slow: 3 },
    });
    expect(run!.strategies[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(run!.riskLimits).toEqual(JSON.parse(JSON.stringify(DEFAULT_RISK_LIMITS)));
    expect(run!.fees).toEqual({ taker_bps: '10', maker_bps: '5' });
    expect(run!.warmUp!.prices!.BTCUSD).toEqual([
      [START - 120_000, '9.5'],
      [START - 60_000, '9.75'],
    ]);
    // the header does not count as data: every point still replays
    const lines = [];
    for await (const l of readRecording(path)) lines.push(l);
    expect(lines).toHaveLength(PRICES.length);
    expect([...(await loadRecordedSeries(path, 'BTCUSD')).prices]).toEqual(PRICES);
  });

  it('is redacted like every line: secret-named fields censored, known secret values masked', async () => {
    const secrets = new SecretSet();
    secrets.add('hunter2-very-secret');
    const path = await record(
      'secret.jsonl',
      { ...RUN, strategies: [{ spec: 'nowhere.ts', name: 'x', params: { client_secret: 'abc', note: 'key hunter2-very-secret' } }] },
      secrets,
    );
    const head = readFileSync(path, 'utf8').split('\n')[0]!;
    expect(head).not.toContain('abc');
    expect(head).not.toContain('hunter2-very-secret');
    const run = await readRecordingHeader(path);
    // a plugin that cannot be found is kept without hashes
    expect(run!.strategies[0]!.hash).toBeUndefined();
  });

  it('a recording without run information reads as before', async () => {
    const path = await record('plain.jsonl', undefined);
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe('{"format":"tradeloop-stream-recording","version":1}');
    expect(await readRecordingHeader(path)).toBeUndefined();
    expect(describeRunInfo(undefined)[0]).toMatch(/no run information/);
  });

  it('refuses malformed run information, naming the field', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(
      path,
      `${JSON.stringify({ format: 'tradeloop-stream-recording', version: 1, run: { tradeloopVersion: '0.1.0', strategies: [{ name: 'a', params: 3 }] } })}\n`,
    );
    await expect(readRecordingHeader(path)).rejects.toThrow(/run\.strategies\[0\]\.params should be an object/);
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"hello":1}\n');
    await expect(readRecordingHeader(other)).rejects.toThrow(/not a tradeloop stream recording/);
  });

  it('tradeloop backtest --data RECORDING prints what the header holds (text and --json)', async () => {
    const path = await record('cli.jsonl', RUN);
    const args = ['backtest', '--strategy', 'sma-cross', '--params', 'fast=2,slow=3', '--data', path];
    const text = await runCli(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/recorded run: tradeloop \d+\.\d+\.\d+ on sandbox started 2023-12-31T23:59:59\.995Z/);
    expect(text.stdout).toMatch(/strategy sma-cross market=BTCUSD,fast=2,slow=3 · built-in sha256 [0-9a-f]{12}/);
    expect(text.stdout).toMatch(/fees: \{"taker_bps":"10","maker_bps":"5"\}/);
    expect(text.stdout).toMatch(/warm-up: 2 points of ONE_MINUTE \(BTCUSD 2 recorded\)/);
    const json = JSON.parse((await runCli([...args, '--json'])).stdout);
    expect(json.recording.strategies[0].name).toBe('sma-cross');
    expect(json.points).toBe(PRICES.length);
    const plain = JSON.parse(
      (
        await runCli([
          'backtest',
          '--strategy',
          'sma-cross',
          '--params',
          'fast=2,slow=3',
          '--json',
          '--data',
          await record('cli-plain.jsonl', undefined),
        ])
      ).stdout,
    );
    expect(plain.recording).toBeNull();
  });
});
