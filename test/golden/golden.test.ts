/**
 * Golden backtests: fixed data (a seeded walk) and fixed parameters → the stored metrics and a
 * SHA-256 of the trade list in `*.golden.json`. Any change to the fill model, fees, rounding, the
 * engine path or the metrics shows up here. After an intended change, regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run test/golden` and review the diff of the JSON files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metricsToJson } from '../../backtest/metrics.js';
import { runBacktest } from '../../backtest/run.js';
import { randomWalk } from '../support/walk.js';
import { loadStrategy, resolveParams } from '../../src/strategy/index.js';

interface GoldenCase {
  readonly name: string;
  readonly strategy: string;
  readonly params: Record<string, unknown>;
  readonly seed: number;
  readonly points: number;
  readonly feeBps?: number;
  readonly slippageBps?: number;
}

const CASES: readonly GoldenCase[] = [
  { name: 'sma-cross', strategy: 'sma-cross', params: { fast: 10, slow: 30 }, seed: 2024, points: 5_000 },
  {
    name: 'sma-cross-slippage',
    strategy: 'sma-cross',
    params: { fast: 5, slow: 50, size_pct: 50 },
    seed: 7,
    points: 3_000,
    feeBps: 25,
    slippageBps: 5,
  },
  { name: 'rsi-reversion', strategy: 'rsi-reversion', params: {}, seed: 99, points: 4_000 },
  { name: 'quote-dca', strategy: 'quote-dca', params: { interval_ms: 86_400_000 }, seed: 5, points: 2_000 },
];

const walk = (n: number, seed: number) =>
  randomWalk(n, seed, { start: 30_000, vol: 0.015, from: Date.UTC(2023, 0, 1), source: `walk-${seed}` });

describe('golden backtests', () => {
  for (const c of CASES) {
    it(`${c.name}: metrics and trade list match the stored golden`, async () => {
      const definition = await loadStrategy(c.strategy);
      const run = await runBacktest({
        definition,
        params: resolveParams(definition, c.params),
        series: walk(c.points, c.seed),
        feeBps: c.feeBps,
        slippageBps: c.slippageBps,
      });
      const tradeHash = createHash('sha256').update(JSON.stringify(run.trades)).digest('hex');
      const actual = {
        metrics: metricsToJson(run.metrics),
        feesPaid: run.feesPaid,
        trades: run.trades.length,
        tradeHash,
        decisions: run.decisions,
        finalBalances: run.finalBalances,
      };
      const file = join(import.meta.dirname, `${c.name}.golden.json`);
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        if (process.env.UPDATE_GOLDEN !== '1')
          throw new Error(`${file} is missing: run UPDATE_GOLDEN=1 npx vitest run test/golden to create it`);
        writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
      }
      expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
