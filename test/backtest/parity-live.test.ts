import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { resolveParams } from '../../src/strategy/index.js';
import smaCross from '../../strategies/sma-cross.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';
import { randomWalk } from '../support/walk.js';

const STEP_MS = 60_000;
const POINTS = 240;

function walk(seed: number): PriceSeriesLike {
  return randomWalk(POINTS, seed, { start: 60_000, vol: 0.004, stepMs: STEP_MS, source: `walk ${seed}` });
}

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('backtest and live parity', () => {
  it(
    'sma-cross makes the same intents (time, kind, market, side) in a backtest as against the local sandbox replaying the series',
    { timeout: 120_000 },
    async () => {
      const series = walk(21);
      const risk = { stale_after_ms: 120_000, max_intents_per_minute: 600, max_order_notional: '1000000', price_band_bps: 2_000 };
      const params = { fast: 3, slow: 8, size_pct: 50 };
      const backtest = await runBacktest({
        definition: smaCross,
        params: resolveParams(smaCross, params),
        series,
        initial: { USD: '100000' },
        limits: RiskLimitsSchema.parse(risk),
      });
      const expected = backtest.intents.map((t) => ({ at: t.at - series.times[0]!, kind: t.kind, market: t.market, side: t.side }));
      expect(expected.length).toBeGreaterThan(6);

      h = await startLiveHarness(
        'sma-cross',
        params,
        {
          streams: {
            prices_ms: STEP_MS,
            ticker_ms: STEP_MS,
            book_ms: STEP_MS,
            quotes_ms: STEP_MS,
            balances_ms: 5_000,
            orders_ms: 5_000,
            warmup_points: 0,
          },
          risk,
        },
        { USD: '100000' },
        { sim: { replay: { BTCUSD: { series } } } },
      );
      const start = h.clock.now();
      await h.step((POINTS - 1) * STEP_MS, 5_000);
      const live = h.journal
        .intents()
        .reverse()
        .map((r) => ({ at: r.createdAt - start, kind: r.kind, market: r.market ?? undefined, side: r.side ?? undefined }));
      expect(live).toEqual(expected);
      // and both actually traded
      expect(h.journal.fills().length).toBeGreaterThan(0);
      expect(backtest.trades.length).toBeGreaterThan(2);
    },
  );
});
