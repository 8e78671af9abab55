/**
 * The three lanes of the kernel parity suite, each the kernel over one venue with the parity script
 * (see parity-script.ts): point replay (the backtest bundle over PointVenue, stepped point by point),
 * the simulated platform (LiveRun over SimVenue, fed by a scripted source: see liveRunRig) and the
 * local sandbox over loopback (LiveRun over RestVenue with the polling streams: see startLiveHarness).
 * A lane moves its own time on a TestClock; the driver only asks for the next price and for a halt.
 */
import { buildBacktestBundle } from '../../backtest/driver.js';
import { TestClock } from '../../src/clock/index.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { Kernel } from '../../src/engine/kernel.js';
import { RestVenue, type Venue } from '../../src/venue/index.js';
import { SimPlatform } from '../../src/sim/sim.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { closeRigJournals, liveRunRig } from '../support/live-run-rig.js';
import { startLiveHarness } from '../support/live-harness.js';
import { T0 } from '../support/sandbox-fixture.js';
import {
  PARITY_FUNDING,
  PARITY_POINTS,
  PARITY_PRICE,
  PARITY_RISK,
  PARITY_STEP_MS,
  newProbe,
  paritySibling,
  parityStrategy,
  type ScriptProbe,
} from './parity-script.js';

export interface Lane {
  readonly name: string;
  readonly kernel: Kernel;
  readonly probe: ScriptProbe;
  /** The venue behind the kernel, and the prefix of the lane's ref_ids (`<prefix>-<n>` for the n-th intent). */
  readonly venue: Venue;
  readonly refPrefix: string;
  /** Delivers the next armed price and waits until the kernel has finished with what it made. */
  next(): Promise<void>;
  /** Halts trading by hand and waits until the venue has confirmed the cancels of the open orders. */
  halt(reason: string): Promise<void>;
  close(): Promise<void>;
}

/** The flat BTCUSD series every venue replays. */
export function paritySeries(): PriceSeriesLike {
  const times = new Float64Array(PARITY_POINTS).map((_, i) => T0 + i * PARITY_STEP_MS);
  const prices = new Float64Array(PARITY_POINTS).fill(PARITY_PRICE);
  return { source: 'parity flat', length: PARITY_POINTS, times, prices };
}

const limits = () => RiskLimitsSchema.parse(PARITY_RISK);

/** Point replay: the backtest's own bundle, stepped one point per price. */
export async function pointReplayLane(): Promise<Lane> {
  const probe = newProbe();
  const definition = parityStrategy(probe);
  const b = buildBacktestBundle({
    definition,
    params: {},
    markets: ['BTCUSD'],
    startMs: T0,
    limits: limits(),
    venue: { funding: PARITY_FUNDING, feeBps: 10 },
    alongside: [{ name: paritySibling.name, definition: paritySibling, params: {}, markets: ['BTCUSD'] }],
  });
  await b.kernel.startMetadata();
  probe.profiles = { from: 'default', to: 'savings' };
  let at = T0;
  const step = async (): Promise<void> => {
    at += PARITY_STEP_MS;
    b.clock.advanceTo(at);
    b.source.step('BTCUSD', at, PARITY_PRICE);
    await b.kernel.drain();
  };
  await step(); // a first point: balances and a price before the script starts
  return {
    name: 'point replay',
    kernel: b.kernel,
    probe,
    venue: b.venue,
    refPrefix: 'bt',
    next: step,
    halt: async (reason) => {
      b.kernel.halt(reason);
      await b.kernel.drain();
    },
    close: async () => {
      b.kernel.close();
      b.journal.close();
    },
  };
}

/** The simulated platform: LiveRun over SimVenue on the sim's own clock, balances and prices streamed by hand. */
export async function simLane(): Promise<Lane> {
  const probe = newProbe();
  const clock = new TestClock(T0);
  const sim = new SimPlatform({ clock, seed: 7, funding: PARITY_FUNDING, replay: { BTCUSD: { series: paritySeries() } } });
  const rig = liveRunRig({
    clock,
    sim,
    strategy: parityStrategy(probe),
    alongside: [paritySibling],
    config: { risk: PARITY_RISK, streams: { orders_ms: 1_000, warmup_points: 0 } },
  });
  await rig.run.start([]);
  probe.profiles = { from: sim.profiles.defaultId, to: sim.profiles.create('savings', undefined, sim.now()).id };
  const kernel = rig.run.kernel;
  const settle = async (): Promise<void> => {
    await kernel.drain();
    await clock.advanceAsync(2_000, 500);
    await kernel.drain();
  };
  return {
    name: 'SimVenue',
    kernel,
    probe,
    venue: rig.venue,
    refPrefix: 'rig',
    next: async () => {
      await clock.advanceAsync(PARITY_STEP_MS - 2_000, 1_000);
      await rig.pushOpenOrders();
      await rig.tick();
      await settle();
    },
    halt: async (reason) => {
      kernel.halt(reason);
      for (let i = 0; i < 30 && kernel.openOrders.count() > 0; i++) await settle();
    },
    close: async () => {
      await rig.run.stop('parity over');
      closeRigJournals();
    },
  };
}

/** The local sandbox over loopback: LiveRun over RestVenue, prices and account state from the polling streams. */
export async function sandboxLane(): Promise<Lane> {
  const probe = newProbe();
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
    parityStrategy(probe),
    {},
    { streams: intervals, risk: PARITY_RISK },
    { ...PARITY_FUNDING },
    { sim: { replay: { BTCUSD: { series: paritySeries() } } } },
    [paritySibling],
  );
  const sim = h.sandbox.sim;
  probe.profiles = { from: sim.profiles.defaultId, to: sim.profiles.create('savings', undefined, sim.now()).id };
  const kernel = h.run.kernel;
  const settle = async (): Promise<void> => {
    await h.step(1_000, 1_000);
    await kernel.drain();
  };
  return {
    name: 'RestVenue → sandbox',
    kernel,
    probe,
    venue: new RestVenue(h.client.api, sim.profiles.defaultId),
    refPrefix: 'e2e',
    next: async () => {
      const want = probe.seen + 1;
      for (let i = 0; i < (2 * PARITY_STEP_MS) / 1_000 && probe.seen < want; i++) await settle();
      for (let i = 0; i < 3; i++) await settle();
    },
    halt: async (reason) => {
      kernel.halt(reason);
      for (let i = 0; i < 30 && kernel.openOrders.count() > 0; i++) await settle();
    },
    close: () => h.close(),
  };
}
