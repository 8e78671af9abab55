/**
 * One account view: a live run on the embedded sandbox with three strategies on two markets (two on
 * BTCUSD, one on ETHUSD; of the account's 1 BTC held by no strategy the config assigns 0.4 to one). The run summary, `tradeloop
 * positions` on its journal, the ops server's /api/positions and the backtest's round-trip report
 * of the journal's fills give the same positions and P&L per strategy, and the positions plus the
 * balance held by no strategy add up to the account's balance of each asset.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RoundTripTracker } from '../../backtest/round-trips.js';
import { D, splitMarket } from '../../src/core/index.js';
import { Journal, tradesFromFills, type StrategyPosition } from '../../src/exec/index.js';
import { OpsState, RunMetrics, startOpsServer, type OpsRun } from '../../src/ops/index.js';
import { executionOfDecimals } from '../../src/fills/point/orders.js';
import { stepClock } from '../support/streams-harness.js';
import { startLiveHarness } from '../support/live-harness.js';
import { buy, exit, scripted } from '../support/two-strategies.js';
import { T0 } from '../support/sandbox-fixture.js';
import { runCli } from '../cli/cli-helpers.js';

const STEP_MS = 60_000;
const POINTS = 40;
/** A price rising by `rise` a minute, so each round trip has a P&L of its own. */
const ramp = (start: number, rise: number) => ({
  source: `ramp ${start}`,
  length: POINTS,
  times: new Float64Array(POINTS).map((_, i) => T0 + i * STEP_MS),
  prices: new Float64Array(POINTS).map((_, i) => start + rise * i),
});
const TOKEN = 'account-view-token-0123456789';
const byKey = (a: { strategy: string; market: string }, b: { strategy: string; market: string }) =>
  `${a.strategy}/${a.market}`.localeCompare(`${b.strategy}/${b.market}`);
/** The fields every view gives of a strategy's position. */
const core = (p: StrategyPosition) => ({
  strategy: p.strategy,
  market: p.market,
  position: p.position,
  costBasis: p.costBasis,
  realizedPnl: p.realizedPnl,
  fees: p.fees,
  roundTrips: p.roundTrips,
});

describe('one account view, three strategies on two markets', () => {
  it(
    'the summary, tradeloop positions, /api/positions and the backtest report agree, and add up to the account',
    { timeout: 120_000 },
    async () => {
      const seen = { a: { n: 0 }, b: { n: 0 }, c: { n: 0 } };
      const file = join(mkdtempSync(join(tmpdir(), 'tradeloop-account-')), 'journal.sqlite');
      const intervals = {
        prices_ms: STEP_MS,
        ticker_ms: STEP_MS,
        book_ms: STEP_MS,
        quotes_ms: STEP_MS,
        balances_ms: 5_000,
        orders_ms: 5_000,
        warmup_points: 0,
      };
      const h = await startLiveHarness(
        scripted('trend-a', { 0: buy('1200.00'), 3: exit }, seen.a),
        {},
        {
          streams: intervals,
          risk: { max_intents_per_minute: 600, max_order_notional: '100000', stale_after_ms: 600_000 },
          strategies: [{ plugin: 'scripted', name: 'trend-a', holdings: { BTCUSD: { amount: '0.4', price: '59000' } } }],
        },
        { USD: '100000', BTC: '1' },
        { sim: { replay: { BTCUSD: { series: ramp(60_000, 150) }, ETHUSD: { series: ramp(3_000, -4) } } } },
        [
          scripted('grid-b', { 1: buy('1800.00'), 5: exit }, seen.b),
          scripted('eth-c', { 0: buy('900.00', 'ETHUSD'), 2: exit, 3: buy('600.00', 'ETHUSD') }, seen.c, 'ETHUSD'),
        ],
        new Journal(file),
      );
      let server: Awaited<ReturnType<typeof startOpsServer>> | undefined;
      let kernel: StrategyPosition[] = [];
      try {
        const { positions } = h.run.kernel;
        // the start made 0.4 of the BTC no strategy held trend-a's own, at the price the config gives
        expect([
          positions.view('trend-a', 'BTCUSD').amount.toFixed(),
          positions.view('trend-a', 'BTCUSD').averageCost?.toFixed(),
          positions.unassignedOf('BTC').toFixed(),
        ]).toEqual(['0.4', '59000', '0.6']);
        const settle = async (): Promise<void> => {
          await h.step(1_000, 1_000);
          await h.run.kernel.drain();
        };
        for (let i = 0; i < 1_200 && Math.min(seen.a.n, seen.b.n, seen.c.n) < 7; i++) await settle();
        // the fills and balances of what the last prices made: a few polls later
        for (let i = 0; i < 15; i++) await settle();
        kernel = [...positions.list()].sort(byKey);
        expect(kernel.map((p) => [p.strategy, p.market, p.roundTrips, new D(p.position).gt(0)])).toEqual([
          ['eth-c', 'ETHUSD', 1, true],
          ['grid-b', 'BTCUSD', 1, false],
          ['trend-a', 'BTCUSD', 1, false],
        ]);

        // the ops server's /api/positions
        const run: OpsRun = {
          clock: h.clock,
          kernel: h.run.kernel,
          strategies: h.run.kernel.strategies,
          journal: h.journal,
          view: () => h.run.view(),
          requestStop: () => undefined,
        };
        server = await startOpsServer({
          host: '127.0.0.1',
          port: 0,
          token: TOKEN,
          run,
          state: new OpsState(run),
          metrics: new RunMetrics({ processMetrics: false }),
          timers: h.clock,
        });
        const api = (await (await fetch(`${server.url}api/positions`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
          positions: Array<StrategyPosition & { pnl: string; unrealizedPnl: string }>;
        };
        expect([...api.positions].sort(byKey).map(core)).toEqual(kernel.map(core));
        // its P&L is the realized one plus the open position at mid: what ctx.position says
        for (const p of api.positions) {
          const own = positions.view(p.strategy, p.market);
          expect(new D(p.pnl).toFixed()).toBe(own.realizedPnl.plus(own.unrealizedPnl ?? 0).toFixed());
        }

        // the run summary (the run stops: nothing is open, so its positions stay as they are)
        const stopping = h.run.stop('test over');
        let stopped = false;
        void stopping.finally(() => (stopped = true));
        for (let i = 0; i < 600 && !stopped; i++) await stepClock(h.clock, 1_000, 1_000, () => h.client.outstanding() === 0);
        const summary = await stopping;
        expect([...(summary.strategyPositions ?? [])].sort(byKey)).toEqual(kernel);

        // the positions and the balance no strategy holds add up to the account, asset by asset
        const account = h.sandbox.sim.accounts.balances(h.sandbox.sim.profiles.defaultId);
        for (const asset of ['BTC', 'ETH']) {
          const total = account.find((b) => b.asset === asset)!;
          const held = kernel.filter((p) => splitMarket(p.market).base === asset).reduce((s, p) => s.plus(p.position), new D(0));
          expect([asset, held.plus(summary.unassigned?.[asset] ?? '0').toFixed()]).toEqual([
            asset,
            total.available.plus(total.trading).toFixed(),
          ]);
        }
        expect(summary.unassigned).toEqual({ BTC: '0.6' });

        // the backtest's round trips of the journal's fills, per strategy and market: the same trades and P&L
        const fills = h.journal.strategyFills();
        const journalTrips = tradesFromFills(fills).roundTrips.filter((t) => t.exitAt !== undefined);
        for (const p of kernel) {
          const tracker = new RoundTripTracker(false);
          for (const f of fills.filter((x) => x.strategy === p.strategy && x.market === p.market)) {
            const [amount, price, commission] = [new D(f.amount), new D(f.price), new D(f.commission)];
            const quoteAmount = f.side === 'BUY' ? amount.times(price).plus(commission) : amount.times(price).minus(commission);
            tracker.add(
              executionOfDecimals({
                executionId: f.refId,
                orderId: f.refId,
                refId: f.refId,
                market: f.market,
                side: f.side as 'BUY' | 'SELL',
                commissionAsset: f.commissionAsset,
                at: f.at,
                kind: 'order',
                amount,
                price,
                commission,
                quoteAmount,
              }),
            );
          }
          const mine = journalTrips.filter((t) => t.strategy === p.strategy && t.market === p.market);
          expect(tracker.trades.map((t) => [t.quantity, t.pnl, t.fees])).toEqual(mine.map((t) => [t.quantity, t.pnl, t.fees]));
          // a strategy whose round trips all closed realized exactly their P&L
          const closedPnl = tracker.trades.reduce((s, t) => s.plus(t.pnl), new D(0));
          if (new D(p.position).isZero()) expect(new D(p.realizedPnl).toFixed(8)).toBe(closedPnl.toFixed(8));
        }
      } finally {
        await server?.close();
        await h.close();
      }

      // `tradeloop positions` on the run's journal
      const cli = await runCli(['positions', '--journal', file, '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      const fromCli = (JSON.parse(cli.stdout) as StrategyPosition[]).sort(byKey);
      expect(fromCli).toEqual(kernel);
    },
  );
});
