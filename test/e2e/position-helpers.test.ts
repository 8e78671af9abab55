/**
 * The position helper's stop-loss in every mode: one plugin, written as a user writes one (imports of
 * `tradeloop` only), enters once and holds with a 2 % stop-loss while the price falls through it. In
 * a backtest (point replay) and in a live run against the embedded sandbox replaying the same prices,
 * the stop must trigger at the same point, say so in words, and the whole position must be sold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Position, defineStrategy, z } from 'tradeloop';
import { runBacktest } from '../../backtest/run.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { resolveParams } from '../../src/strategy/index.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';

const STEP_MS = 60_000;
const T0 = Date.UTC(2024, 0, 1);
/** Flat at 60,000, up to 60,500, then down through the stop (about 58,800) to 57,000 and flat. */
const PRICES = [...Array(5).fill(60_000), 60_200, 60_500, 60_300, 59_800, 59_300, 58_900, 58_700, 58_000, 57_500, ...Array(10).fill(57_000)] as number[];

function series(): PriceSeriesLike {
  return { source: 'stop-loss path', length: PRICES.length, times: Float64Array.from(PRICES, (_, i) => T0 + i * STEP_MS), prices: Float64Array.from(PRICES) };
}

/**
 * A plugin that buys once at its first live price and holds under a stop-loss; its positions, and
 * the side and `orderDone` of each fill it hears, are kept for the test to read.
 */
function stopOnce(positions: Position[], fills: string[] = []) {
  return defineStrategy({
    name: 'stop-once',
    description: 'buys once, then holds until its stop-loss sells',
    params: z.object({ stop_loss_pct: z.number().positive().default(2), size_pct: z.number().default(10) }),
    markets: ['BTCUSD'],
    create(p) {
      const position = new Position('BTCUSD', { sizePct: p.size_pct, stopLossPct: p.stop_loss_pct });
      positions.push(position);
      let bought = false;
      return {
        onEvent(e, ctx) {
          const exit = position.onEvent(e, ctx);
          if (exit || bought) return exit;
          const entry = position.enter(ctx);
          bought = entry !== undefined;
          return entry;
        },
        onReport(r, ctx) {
          if (r.kind === 'filled') fills.push(`${r.side} done=${r.orderDone}`);
          position.onReport(r, ctx);
        },
      };
    },
  });
}

const RISK = { stale_after_ms: 120_000, max_intents_per_minute: 600, max_order_notional: '1000000', price_band_bps: 2_000 };

/** The stop's outcome as both modes must show it. */
function expectStopped(position: Position | undefined): void {
  expect(position?.state).toBe('flat');
  const why = position?.exitReason;
  expect(why?.kind).toBe('stop-loss');
  expect(why?.text).toMatch(/^stop-loss at 58,\d{3}\.\d{2}$/);
  // 2 % below the entry, and the price that triggered it is the first one at or below it
  expect(why!.level).toBeCloseTo(position!.entryPrice!.toNumber() * 0.98, 6);
  expect(why!.price).toBe(PRICES.find((p, i) => i > 0 && p <= why!.level));
}

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('position helper stop-loss in every mode', () => {
  it('a backtest and a live run on the embedded sandbox both stop out at the same point and sell the whole position', { timeout: 120_000 }, async () => {
    const data = series();
    const inBacktest: Position[] = [];
    const fills: string[] = [];
    const definition = stopOnce(inBacktest, fills);
    const run = await runBacktest({ definition, params: resolveParams(definition, {}), series: data, initial: { USD: '100000' }, limits: RiskLimitsSchema.parse(RISK) });
    expectStopped(inBacktest[0]);
    expect(run.trades).toHaveLength(1);
    expect(run.finalBalances.BTC).toBe('0');
    const expected = run.intents.map((t) => ({ at: t.at - T0, side: t.side, outcome: t.outcome }));
    expect(expected.map((t) => t.side)).toEqual(['BUY', 'SELL']);
    // each order's last fill says the order is done
    expect(fills.at(-1)).toBe('SELL done=true');
    expect(fills.filter((f) => f.endsWith('done=true'))).toEqual(['BUY done=true', 'SELL done=true']);

    const inLive: Position[] = [];
    const liveFills: string[] = [];
    h = await startLiveHarness(
      stopOnce(inLive, liveFills),
      {},
      { streams: { prices_ms: STEP_MS, ticker_ms: STEP_MS, book_ms: STEP_MS, quotes_ms: STEP_MS, balances_ms: 5_000, orders_ms: 5_000, warmup_points: 0 }, risk: RISK },
      { USD: '100000' },
      { sim: { replay: { BTCUSD: { series: data } } } },
    );
    const start = h.clock.now();
    await h.step((PRICES.length - 1) * STEP_MS, 5_000);
    expectStopped(inLive[0]);
    expect(liveFills.filter((f) => f.endsWith('done=true'))).toEqual(['BUY done=true', 'SELL done=true']);
    const live = h.journal
      .intents()
      .reverse()
      .map((r) => ({ at: r.createdAt - start, side: r.side ?? undefined, outcome: r.decision }));
    expect(live).toEqual(expected);
    // the sell filled in full: every base unit bought was sold at the venue
    const [buy, sell] = h.journal.intents().reverse();
    expect([buy?.status, sell?.status]).toEqual(['FILLED', 'FILLED']);
    expect(sell?.amountFilled).toBe(buy?.amountFilled);
    expect(inLive[0]!.amount.isZero()).toBe(true);
  });
});
