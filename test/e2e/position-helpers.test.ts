/**
 * The position helper's stop-loss in every mode: one plugin, written as a user writes one (imports of
 * `tradeloop` only), enters once and holds with a 2 % stop-loss while the price falls through it. In
 * a backtest (point replay), a live run against the embedded sandbox and a paper run on the simulated
 * platform (SimVenue), each replaying the same prices, the stop must trigger at the same point, say so
 * in words, and the whole position must be sold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Position, defineStrategy, z } from 'tradeloop';
import { runBacktest } from '../../backtest/run.js';
import { TestClock } from '../../src/clock/index.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import { SimPlatform } from '../../src/sim/sim.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { resolveParams } from '../../src/strategy/index.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';
import { closeRigJournals, liveRunRig } from '../support/live-run-rig.js';

const STEP_MS = 60_000;
const T0 = Date.UTC(2024, 0, 1);
/** Flat at 60,000, up to 60,500, then down through the stop (about 58,800) to 57,000 and flat. */
const PRICES = [
  ...Array(5).fill(60_000),
  60_200,
  60_500,
  60_300,
  59_800,
  59_300,
  58_900,
  58_700,
  58_000,
  57_500,
  ...Array(10).fill(57_000),
] as number[];

function series(): PriceSeriesLike {
  return {
    source: 'stop-loss path',
    length: PRICES.length,
    times: Float64Array.from(PRICES, (_, i) => T0 + i * STEP_MS),
    prices: Float64Array.from(PRICES),
  };
}

/** What a plugin run shows the test: its positions, the side and `orderDone` of each fill, every price it saw. */
interface Seen {
  readonly positions: Position[];
  readonly fills: string[];
  readonly prices: number[];
}

const seen = (): Seen => ({ positions: [], fills: [], prices: [] });

/** A plugin that buys once at its first live price and holds under a stop-loss, telling `out` what it sees. */
function stopOnce(out: Seen) {
  return defineStrategy({
    name: 'stop-once',
    description: 'buys once, then holds until its stop-loss sells',
    // no params: the paper rig runs a plugin without resolving any
    params: z.object({}),
    markets: ['BTCUSD'],
    create() {
      const position = new Position('BTCUSD', { sizePct: 10, stopLossPct: 2 });
      out.positions.push(position);
      let bought = false;
      return {
        onEvent(e, ctx) {
          if (e.kind === 'price') out.prices.push(e.price);
          const exit = position.onEvent(e, ctx);
          if (exit || bought) return exit;
          const entry = position.enter(ctx);
          bought = entry !== undefined;
          return entry;
        },
        onReport(r, ctx) {
          if (r.kind === 'filled') out.fills.push(`${r.side} done=${r.orderDone}`);
          position.onReport(r, ctx);
        },
      };
    },
  });
}

const RISK = { stale_after_ms: 120_000, max_intents_per_minute: 600, max_order_notional: '1000000', price_band_bps: 2_000 };

/** The stop's outcome as every mode must show it, from what the plugin saw. */
function expectStopped(out: Seen): void {
  const position = out.positions[0];
  expect(position?.state).toBe('flat');
  const why = position?.exitReason;
  expect(why?.kind).toBe('stop-loss');
  expect(why?.text).toMatch(/^stop-loss at 58,\d{3}\.\d{2}$/);
  // 2 % below the entry, reached by the price that triggered it, and not by any price seen before it
  expect(why!.level).toBeCloseTo(position!.entryPrice!.toNumber() * 0.98, 6);
  const at = out.prices.indexOf(why!.price!);
  expect(why!.price).toBeLessThanOrEqual(why!.level);
  expect(out.prices.slice(0, at).every((p) => p > why!.level)).toBe(true);
  // each order's last fill says the order is done, and the position sold all it bought
  expect(out.fills.filter((f) => f.endsWith('done=true'))).toEqual(['BUY done=true', 'SELL done=true']);
  expect(position!.amount.isZero()).toBe(true);
}

/** The journal's two orders: the buy and the stop's sell, both filled, the sell for every unit bought. */
function expectSoldAll(journal: { intents(): Array<{ side: string | null; status: string | null; amountFilled: string }> }): void {
  const [buy, sell] = journal.intents().reverse();
  expect([buy?.side, buy?.status, sell?.side, sell?.status]).toEqual(['BUY', 'FILLED', 'SELL', 'FILLED']);
  expect(sell?.amountFilled).toBe(buy?.amountFilled);
}

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('position helper stop-loss in every mode', () => {
  it(
    'a backtest and a live run on the embedded sandbox both stop out at the same point and sell the whole position',
    { timeout: 120_000 },
    async () => {
      const data = series();
      const inBacktest = seen();
      const definition = stopOnce(inBacktest);
      const run = await runBacktest({
        definition,
        params: resolveParams(definition, {}),
        series: data,
        initial: { USD: '100000' },
        limits: RiskLimitsSchema.parse(RISK),
      });
      expectStopped(inBacktest);
      expect(run.trades).toHaveLength(1);
      expect(run.finalBalances.BTC).toBe('0');
      const expected = run.intents.map((t) => ({ at: t.at - T0, side: t.side, outcome: t.outcome }));
      expect(expected.map((t) => t.side)).toEqual(['BUY', 'SELL']);

      const inLive = seen();
      h = await startLiveHarness(
        stopOnce(inLive),
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
          risk: RISK,
        },
        { USD: '100000' },
        { sim: { replay: { BTCUSD: { series: data } } } },
      );
      const start = h.clock.now();
      await h.step((PRICES.length - 1) * STEP_MS, 5_000);
      expectStopped(inLive);
      const live = h.journal
        .intents()
        .reverse()
        .map((r) => ({ at: r.createdAt - start, side: r.side ?? undefined, outcome: r.decision }));
      expect(live).toEqual(expected);
      expectSoldAll(h.journal);
    },
  );

  it(
    'a paper run (the simulated platform through SimVenue) stops out at the same price point and sells the whole position',
    { timeout: 60_000 },
    async () => {
      const clock = new TestClock(T0);
      const sim = new SimPlatform({ clock, seed: 7, funding: { USD: '100000' }, replay: { BTCUSD: { series: series() } } });
      const inPaper = seen();
      const rig = liveRunRig({
        clock,
        sim,
        strategy: stopOnce(inPaper),
        config: { risk: RISK, streams: { orders_ms: 1_000, warmup_points: 0 } },
      });
      try {
        await rig.run.start([]);
        for (let i = 0; i < PRICES.length; i++) {
          await rig.pushOpenOrders();
          await rig.tick();
          await rig.run.kernel.drain();
          await clock.advanceAsync(STEP_MS, 1_000);
          await rig.run.kernel.drain();
        }
        expectStopped(inPaper);
        // one price per point: the stop sold at the same point as in the backtest
        expect(inPaper.prices.indexOf(inPaper.positions[0]!.exitReason!.price!)).toBe(PRICES.findIndex((p) => p < 58_800));
        expectSoldAll(rig.journal);
      } finally {
        await rig.run.stop('test over');
        closeRigJournals();
      }
    },
  );
});
