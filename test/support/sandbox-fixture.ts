import { TestClock } from '../../src/clock/test-clock.js';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { type PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { SandboxHttp } from './sandbox-http.js';

/** Start of simulated time in sandbox tests. */
export const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);
/** When the scripted BTCUSD price steps from 60000 down to 59000. */
export const DROP_AT = T0 + 61_000;

/** BTCUSD at 60000 for a minute, then down to 59000 within a second, flat afterwards. */
export function btcStepSeries(): PriceSeriesLike {
  return {
    source: 'test-step',
    length: 4,
    times: new Float64Array([0, 60_000, 61_000, 7_200_000]),
    prices: new Float64Array([60_000, 60_000, 59_000, 59_000]),
  };
}

export interface TestSandbox {
  readonly handle: SandboxHandle;
  readonly clock: TestClock;
  readonly http: SandboxHttp;
  /** Moves simulated time (the sim ticks on the clock's timers). */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * A sandbox on 127.0.0.1 port 0 whose time moves only when the test says so, with a scripted
 * BTCUSD price (see `btcStepSeries`) so fills happen at known moments.
 */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const clock = new TestClock(T0);
  const handle = await startSandbox({
    clock,
    seed: 11,
    funding: { USD: '2000000' },
    ...options,
    sim: { replay: { BTCUSD: { series: btcStepSeries() } }, ...options.sim },
  });
  return {
    handle,
    clock,
    http: new SandboxHttp(handle.url),
    advance: (ms) => clock.advance(ms),
    close: () => handle.close(),
  };
}
