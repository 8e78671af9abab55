/**
 * Two strategies on one market and one account, through a backtest (the backtest's bundle over point
 * replay) and through a live run on the embedded sandbox over loopback: each exits only its own
 * position (the Position helper's exitAll sells what its strategy holds, not the account's base), a
 * sell of the other's inventory is denied with OWN_POSITION, and the positions plus the balance no
 * strategy holds add up to the account's balance.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildBacktestBundle } from '../../backtest/driver.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { Decision } from '../../src/core/index.js';
import type { Kernel } from '../../src/engine/kernel.js';
import { startLiveHarness } from '../support/live-harness.js';
import { strategies } from '../support/two-strategies.js';
import { T0 } from '../support/sandbox-fixture.js';
import { paritySeries } from '../parity/parity-lanes.js';
import { PARITY_PRICE, PARITY_STEP_MS } from '../parity/parity-script.js';

const FUNDING = { USD: '100000', BTC: '1' } as const;
const RISK = { max_intents_per_minute: 600, max_order_notional: '100000', stale_after_ms: 120_000 } as const;

interface Lane {
  readonly kernel: Kernel;
  /** Runs until both strategies have seen `n` prices and what they made has settled. */
  until(n: number): Promise<void>;
  btc(): Promise<string>;
  close(): Promise<void>;
}

async function backtestLane(): Promise<Lane> {
  const s = strategies();
  const b = buildBacktestBundle({
    definition: s.a,
    params: {},
    markets: ['BTCUSD'],
    startMs: T0,
    limits: RiskLimitsSchema.parse(RISK),
    venue: { funding: FUNDING, feeBps: 10 },
    alongside: [{ name: s.b.name, definition: s.b, params: {}, markets: ['BTCUSD'] }],
  });
  await b.kernel.startMetadata();
  let at = T0;
  return {
    kernel: b.kernel,
    until: async (n) => {
      while (s.seen() < n) {
        at += PARITY_STEP_MS;
        b.clock.advanceTo(at);
        b.source.step('BTCUSD', at, PARITY_PRICE);
        await b.kernel.drain();
      }
    },
    btc: async () => {
      const x = (await b.venue.balances()).find((y) => y.asset === 'BTC')!;
      return x.available.plus(x.trading).toFixed();
    },
    close: async () => {
      b.kernel.close();
      b.journal.close();
    },
  };
}

async function sandboxLane(): Promise<Lane> {
  const s = strategies();
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
    s.a,
    {},
    { streams: intervals, risk: RISK },
    { ...FUNDING },
    { sim: { replay: { BTCUSD: { series: paritySeries() } } } },
    [s.b],
  );
  const settle = async (): Promise<void> => {
    await h.step(1_000, 1_000);
    await h.run.kernel.drain();
  };
  return {
    kernel: h.run.kernel,
    until: async (n) => {
      for (let i = 0; i < (20 * PARITY_STEP_MS) / 1_000 && s.seen() < n; i++) await settle();
      // the fills and balances of what the last price made: two polls later
      for (let i = 0; i < 12; i++) await settle();
    },
    btc: async () => {
      const x = h.sandbox.sim.accounts.balances(h.sandbox.sim.profiles.defaultId).find((y) => y.asset === 'BTC')!;
      return x.available.plus(x.trading).toFixed();
    },
    close: () => h.close(),
  };
}

const open: Lane[] = [];
afterEach(async () => {
  for (const lane of open.splice(0)) await lane.close();
});

describe.each([
  ['a backtest', backtestLane],
  ['a live run on the embedded sandbox', sandboxLane],
])('two strategies on BTCUSD, one account: %s', (_name, make) => {
  it(
    "each exits only its own position, selling the other's inventory is denied with OWN_POSITION, and the positions add up to the account",
    { timeout: 60_000 },
    async () => {
      const lane = await make();
      open.push(lane);
      const decisions: Decision[] = [];
      lane.kernel.decisions$.subscribe((d) => decisions.push(d));
      const { positions } = lane.kernel;
      await lane.until(3);
      const a = positions.view('trend-a', 'BTCUSD');
      const b = positions.view('grid-b', 'BTCUSD');
      // a MARKET buy of 1200 USD and one of 1800 USD, less the fee (and the sandbox's spread)
      expect([a.amount.gt('0.0199'), a.amount.lt('0.02'), b.amount.gt('0.0299'), b.amount.lt('0.03')]).toEqual([true, true, true, true]);
      const [ownA, ownB] = [a.amount.toFixed(), b.amount.toFixed()];
      // the account holds both positions and the 1 BTC that no strategy holds: they add up
      expect(positions.unassignedOf('BTC').toFixed()).toBe('1');
      expect(positions.heldOf('BTC').plus(positions.unassignedOf('BTC')).toFixed()).toBe(await lane.btc());
      const oversell = decisions.find((d) => d.intent.strategy === 'grid-b' && 'side' in d.intent && d.intent.side === 'SELL');
      expect(oversell).toMatchObject({
        kind: 'deny',
        reason: { code: 'OWN_POSITION', details: { strategy: 'grid-b', required: '0.04', own: ownB, asset: 'BTC' } },
      });
      await lane.until(6); // a MARKET order fills at the next point in a backtest
      // each exit sold its own strategy's position, not the account's 1.05 BTC
      const sells = decisions
        .filter((d) => d.kind === 'approve' && 'side' in d.intent && d.intent.side === 'SELL')
        .map((d) => [d.intent.strategy, 'baseAmount' in d.intent ? d.intent.baseAmount : undefined]);
      expect(sells).toEqual([
        ['trend-a', ownA],
        ['grid-b', ownB],
      ]);
      expect([a.amount.toFixed(), b.amount.toFixed(), await lane.btc()]).toEqual(['0', '0', '1']);
      // each strategy's P&L is its own round trip's: the fees (and spread) each way
      expect([a.realizedPnl.isNegative(), b.realizedPnl.isNegative(), b.realizedPnl.lt(a.realizedPnl)]).toEqual([true, true, true]);
    },
  );
});
