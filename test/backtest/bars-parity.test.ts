/**
 * The same bar strategy on the same prices, live against the local sandbox (LiveRun over RestVenue,
 * bars built from the polled prices and closed by the run's timer) and replayed in a backtest (bars
 * built from the series' points, closed by the driver's ticks): the same bars, closed at the same
 * times, and the same decisions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run.js';
import type { Bar } from '../../src/bars/index.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import { defineStrategy, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { z } from 'zod';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';
import { randomWalk } from '../support/walk.js';

const STEP_MS = 60_000;
const POINTS = 240;
const START = Date.UTC(2025, 4, 1, 12); // the live harness's clock starts here: the series is replayed from it

/** Buys when a 5m bar closes above the one before's high, sells when it closes below its low; records every bar it hears and when. */
function barProbe(seen: string[]): StrategyDefinition {
  return defineStrategy({
    name: 'bar-probe',
    description: 'parity probe for bars',
    params: z.object({}),
    markets: ['BTCUSD'],
    bars: [
      { market: 'BTCUSD', timeframe: '15m', history: 8 },
      { market: 'BTCUSD', timeframe: '5m', history: 8 },
    ],
    create() {
      let held = false;
      return {
        onBar(bar: Bar, ctx) {
          if (ctx.warmingUp) return undefined;
          seen.push(
            `${bar.timeframe} ${(bar.time - START) / 60_000} o${bar.open} h${bar.high} l${bar.low} c${bar.close} @${(ctx.now() - START) / 60_000}`,
          );
          if (bar.timeframe !== '5m') return undefined;
          const before = ctx.bars('BTCUSD', '5m').at(-2);
          if (before === undefined) return undefined;
          if (!held && bar.close > before.high) {
            held = true;
            return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '1000' };
          }
          if (held && bar.close < before.low) {
            held = false;
            return { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.01' };
          }
          return undefined;
        },
      };
    },
  });
}

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('bars: live on the sandbox and replayed', () => {
  it('gives identical bars, closing at the same times, and identical decisions', { timeout: 120_000 }, async () => {
    const series = randomWalk(POINTS, 33, { start: 60_000, vol: 0.004, stepMs: STEP_MS, from: START, source: 'walk 33' });
    const risk = { stale_after_ms: 120_000, max_intents_per_minute: 600, max_order_notional: '1000000', price_band_bps: 2_000 };
    const replayed: string[] = [];
    const definition = barProbe(replayed);
    const backtest = await runBacktest({
      definition,
      params: resolveParams(definition, {}),
      series,
      initial: { USD: '100000', BTC: '1' },
      limits: RiskLimitsSchema.parse(risk),
    });
    const expected = backtest.intents.map((t) => ({ at: t.at - START, kind: t.kind, side: t.side }));
    expect(expected.length).toBeGreaterThan(4);

    const live: string[] = [];
    h = await startLiveHarness(
      barProbe(live),
      {},
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
      { USD: '100000', BTC: '1' },
      { sim: { replay: { BTCUSD: { series } } } },
    );
    expect(h.clock.now()).toBe(START);
    await h.step((POINTS - 1) * STEP_MS, 5_000);
    // the replay ends at its last point: the live run's bars up to there are compared (its timer closes one more)
    const lastEnd = series.times[POINTS - 1]! - START;
    const closedBy = (line: string): number => Number(line.slice(line.lastIndexOf('@') + 1));
    expect(live.filter((l) => closedBy(l) * 60_000 <= lastEnd)).toEqual(replayed);
    expect(replayed.filter((l) => l.startsWith('15m')).length).toBeGreaterThan(10);
    // each bar was heard at its end, never later: "5m 10 ... @15"
    for (const l of replayed) expect(closedBy(l), l).toBe(Number(l.split(' ')[1]) + (l.startsWith('5m') ? 5 : 15));
    const decided = h.journal
      .intents()
      .reverse()
      .map((r) => ({ at: r.createdAt - START, kind: r.kind, side: r.side ?? undefined }));
    expect(decided).toEqual(expected);
  });
});
