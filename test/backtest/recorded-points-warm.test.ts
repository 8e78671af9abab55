/**
 * `--fill-model points` on a recording warms the strategy as the book model does and as the live run
 * did: on the warm-up prices the recording's header holds, else on its `history:` lines (recordings
 * from before headers held them), else not at all. The same recorded points, sma-cross 2/3: warmed on
 * three prices of 10, the first recorded price (12) crosses fast above slow, so it buys at the first
 * point; cold, three points only fill the slow average and it never decides. The manifest says which.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecordedSeries } from '../../backtest/recorded-series.js';
import { runBacktest } from '../../backtest/run.js';
import { loadStrategy, resolveParams } from '../../src/strategy/index.js';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-points-warm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const PLAIN = { format: 'tradeloop-stream-recording', version: 1 };
const withWarmUp = (p: string) => ({
  ...PLAIN,
  run: {
    tradeloopVersion: '0.0.0',
    strategies: [],
    warmUp: { increment: 'ONE_MINUTE', points: 3, prices: { BTCUSD: [3, 2, 1].map((k) => [T - k * MIN, p]) } },
  },
});
const history = (p: string) => ({
  at: T - 1,
  stream: 'history:BTCUSD',
  body: { items: [3, 2, 1].map((k) => ({ average_price: p, timestamp: new Date(T - k * MIN).toISOString() })) },
});
// sma-cross declares slow + 1 = 4 points: three warm-up prices and the first recorded one are enough
// ETHUSD's history is another market's: it never warms a BTCUSD strategy
const otherHistory = {
  at: T - 1,
  stream: 'history:ETHUSD',
  body: { items: [3, 2, 1].map((k) => ({ average_price: '10', timestamp: new Date(T - k * MIN).toISOString() })) },
};
const points = [12, 13, 14].map((p, i) => ({
  at: T + i * 1000,
  stream: 'prices',
  body: { items: [{ market: 'BTCUSD', current_price: String(p), snapshot_at: new Date(T + i * 1000).toISOString() }] },
}));

function write(name: string, header: object, lines: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header, ...lines, ...points].map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}

async function replay(path: string) {
  const definition = await loadStrategy('sma-cross');
  const params = resolveParams(definition, { fast: 2, slow: 3 }, 'params');
  return runBacktest({ definition, params, series: await loadRecordedSeries(path, 'BTCUSD'), feeBps: 0 });
}

const decided = (run: Awaited<ReturnType<typeof replay>>) => run.intents.map((i) => [i.at - T, i.side]);

describe('the point model on a recording warms the strategy on the recorded warm-up', () => {
  it(
    'decides at the first recorded point only when warmed: header prices first, then history lines, else cold',
    { timeout: 60_000 },
    async () => {
      const header = await replay(write('header.jsonl', withWarmUp('10'), [history('20')]));
      expect([header.warmUpEvents, header.warmUpFrom]).toEqual([3, 'header']);
      expect(decided(header)).toEqual([[0, 'BUY']]);
      // an older recording: its history lines of the market warm it, not another market's
      const older = await replay(write('history.jsonl', PLAIN, [otherHistory, history('10')]));
      expect([older.warmUpEvents, older.warmUpFrom]).toEqual([3, 'history']);
      expect(decided(older)).toEqual([[0, 'BUY']]);
      // warmed on 20s instead, the first prices fall under both averages: the buy comes only at the third
      expect(decided(await replay(write('history-20.jsonl', PLAIN, [history('20')])))).toEqual([[2000, 'BUY']]);
      // the same points with no warm-up anywhere: three points only fill the slow SMA, no decision
      const cold = await replay(write('cold.jsonl', PLAIN, [otherHistory]));
      expect([cold.warmUpEvents, cold.warmUpFrom]).toEqual([0, 'none']);
      expect(cold.intents).toEqual([]);
      expect(cold.warnings[0]).toMatch(/no decision was possible/);
    },
  );

  it('does not warm a replay that starts past the first point (the warm-up precedes the recording)', { timeout: 60_000 }, async () => {
    const definition = await loadStrategy('sma-cross');
    const params = resolveParams(definition, { fast: 2, slow: 3 }, 'params');
    const series = await loadRecordedSeries(write('range.jsonl', withWarmUp('10'), []), 'BTCUSD');
    const run = await runBacktest({ definition, params, series, feeBps: 0, range: { start: 1, end: 3 } });
    expect(run.warmUpEvents).toBeUndefined();
    expect(run.intents).toEqual([]);
  });

  it('tradeloop backtest --fill-model points says in its manifest what warmed the strategy', { timeout: 60_000 }, async () => {
    const args = (path: string) => [
      'backtest',
      '--strategy',
      'sma-cross',
      '--params',
      'fast=2,slow=3',
      '--fill-model',
      'points',
      '--fee-bps',
      '0',
      '--json',
      '--data',
      path,
    ];
    const warm = await runCli(args(write('cli-header.jsonl', withWarmUp('10'), [])));
    expect(warm.code).toBe(0);
    const json = JSON.parse(warm.stdout);
    expect(json.decisions).toMatchObject({ approve: 1 });
    expect(json.manifest.fill_model).toBe('points');
    expect(json.manifest.warm_up.note).toBe(
      "4 points (declared by the strategy): warmed first on the recorded run's warm-up history, as it was live: 3 prices from the recording's header, so it can decide from the first recorded point",
    );
    const old = JSON.parse((await runCli(args(write('cli-history.jsonl', PLAIN, [history('10')])))).stdout);
    expect(old.manifest.warm_up.note).toMatch(/3 prices from its history: lines/);
    const cold = JSON.parse((await runCli(args(write('cli-cold.jsonl', PLAIN, [])))).stdout);
    expect(cold.decisions).toEqual({});
    expect(cold.manifest.warm_up.note).toMatch(/starts cold at the first point \(the recording holds no warm-up history/);
  });
});
