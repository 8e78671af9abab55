/**
 * `tradeloop ctl exit STRATEGY` through the control API of a live run on the embedded sandbox, with
 * two strategies on BTCUSD: the forced exit sells that strategy's own position only (a MARKET sell
 * marked `operator`, through the gate like any reducing order, so it goes while trading is halted),
 * the other keeps its own, and the journal's round trip names the exit's reason.
 */
import { describe, expect, it } from 'vitest';
import { renderSummary } from '../../src/cli/panel.js';
import { tradesFromFills } from '../../src/exec/index.js';
import { Control } from '../../src/ops/control.js';
import { OpsState, type OpsRun } from '../../src/ops/index.js';
import { startLiveHarness } from '../support/live-harness.js';
import { buy, scripted } from '../support/two-strategies.js';
import { paritySeries } from '../parity/parity-lanes.js';
import { PARITY_STEP_MS } from '../parity/parity-script.js';

describe("an operator's forced exit of one strategy", () => {
  it(
    "sells that strategy's own position only, through the gate (while halted too), and journals the reason",
    { timeout: 60_000 },
    async () => {
      const a = { n: 0 };
      const b = { n: 0 };
      const intervals = {
        prices_ms: PARITY_STEP_MS,
        ticker_ms: PARITY_STEP_MS,
        book_ms: PARITY_STEP_MS,
        quotes_ms: PARITY_STEP_MS,
        balances_ms: 5_000,
        orders_ms: 5_000,
        warmup_points: 0,
      };
      const h = await startLiveHarness(
        scripted('trend-a', { 0: buy('1200.00') }, a),
        {},
        { streams: intervals, risk: { max_order_notional: '100000', stale_after_ms: 120_000 } },
        { USD: '100000', BTC: '1' },
        { sim: { replay: { BTCUSD: { series: paritySeries() } } } },
        [scripted('grid-b', { 1: buy('1800.00') }, b)],
      );
      try {
        const settle = async (n: number): Promise<void> => {
          for (let i = 0; i < n; i++) {
            await h.step(1_000, 1_000);
            await h.run.kernel.drain();
          }
        };
        const { positions } = h.run.kernel;
        for (let i = 0; i < 400 && positions.view('grid-b', 'BTCUSD').amount.isZero(); i++) await settle(1);
        const ownA = positions.view('trend-a', 'BTCUSD').amount.toFixed();
        const ownB = positions.view('grid-b', 'BTCUSD').amount.toFixed();
        expect([Number(ownA) > 0, Number(ownB) > 0]).toEqual([true, true]);

        const run: OpsRun = {
          clock: h.clock,
          kernel: h.run.kernel,
          strategies: h.run.kernel.strategies,
          journal: h.journal,
          view: () => h.run.view(),
          requestStop: () => undefined,
        };
        const control = new Control(run, new OpsState(run));
        expect((await control.act('exit', { strategy: 'nobody' })).status).toBe(404);
        expect((await control.act('exit', { strategy: 'grid-b', market: 'ETHUSD' })).body.error).toMatch(/grid-b does not trade ETHUSD/);
        h.run.kernel.haltKeepingOrders('maintenance');
        const answer = await control.act('exit', { strategy: 'grid-b' });
        expect(answer).toMatchObject({
          status: 200,
          body: { strategy: 'grid-b', exits: [{ market: 'BTCUSD', amount: ownB, outcome: 'approved' }] },
        });
        for (let i = 0; i < 60 && !positions.view('grid-b', 'BTCUSD').amount.isZero(); i++) await settle(1);
        expect([positions.view('grid-b', 'BTCUSD').amount.toFixed(), positions.view('trend-a', 'BTCUSD').amount.toFixed()]).toEqual([
          '0',
          ownA,
        ]);
        // nothing of its own is left: a second exit sells nothing
        expect((await control.act('exit', { strategy: 'grid-b' })).body.exits).toEqual([
          { market: 'BTCUSD', amount: '0', note: 'grid-b holds nothing of its own to sell in BTCUSD' },
        ]);
        // one account view: the kernel's positions, `tradeloop positions` (the journal) and the summary agree, and add up to the account
        const summary = positions.summary();
        const byName = (a: { strategy: string }, b: { strategy: string }) => a.strategy.localeCompare(b.strategy);
        expect([...summary.strategyPositions].sort(byName)).toEqual([...tradesFromFills(h.journal.strategyFills()).positions].sort(byName));
        expect(summary.unassigned).toEqual({ BTC: '1' });
        const text = renderSummary({
          durationMs: 1,
          intents: 0,
          approved: 0,
          denied: 0,
          denials: {},
          ordersPlaced: 0,
          fills: 0,
          fees: '0',
          openOrdersLeft: 0,
          unresolved: 0,
          stoppedStrategies: [],
          ...summary,
        });
        expect(text).toMatch(new RegExp(`strategy position\\s+trend-a BTCUSD: ${ownA} BTC, realized P&L 0\\.00 USD`));
        expect(text).toMatch(/strategy position\s+grid-b BTCUSD: 0\.00000000 BTC, realized P&L -\d+\.\d\d USD/);
        expect(text).toMatch(/held by no strategy\s+1\.00000000 BTC/);
        const trips = tradesFromFills(h.journal.strategyFills()).roundTrips;
        expect(trips.find((t) => t.strategy === 'grid-b')).toMatchObject({ quantity: ownB, exitReason: 'operator' });
        expect(trips.find((t) => t.strategy === 'trend-a')).toMatchObject({ open: ownA });
      } finally {
        await h.close();
      }
    },
  );
});
