import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { InputError, type MarketEvent } from '../core/index.js';
import { MAX_WARM_UP_PRICES, warmUpPointsFor, warmUpWithRetry } from './warm-up.js';

const history: MarketEvent[] = [{ kind: 'price', market: 'BTCUSD', at: 1, price: 100 }];

function failing(times: number, error: () => Error = () => new Error('ListHistoricalPrices: malformed response body (not JSON)')) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    warmUp: async () => {
      calls++;
      if (calls <= times) throw error();
      return history;
    },
  };
}

/** Runs `work` while moving the test clock until it settles. */
async function settle<T>(clock: TestClock, work: Promise<T>): Promise<T> {
  let done = false;
  const out = work.finally(() => (done = true));
  while (!done) await clock.advanceAsync(500, 500);
  return out;
}

describe('warm-up history for a live run', () => {
  it('tries a failed load again and uses the history once it loads', async () => {
    const clock = new TestClock(0);
    const warnings: string[] = [];
    const source = failing(2);
    const out = await settle(
      clock,
      warmUpWithRetry(source, ['BTCUSD'], 60, clock, { warn: (m: string) => void warnings.push(m) } as never),
    );
    expect(out).toEqual(history);
    expect(source.calls).toBe(3);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/malformed response body .*trying again \(attempt 2 of 3\)/);
  });

  it('starts without history after the last attempt fails, saying so', async () => {
    const clock = new TestClock(0);
    const warnings: string[] = [];
    const source = failing(10);
    const out = await settle(
      clock,
      warmUpWithRetry(source, ['BTCUSD'], 60, clock, { warn: (m: string) => void warnings.push(m) } as never),
    );
    expect(out).toEqual([]);
    expect(source.calls).toBe(3);
    expect(warnings.at(-1)).toMatch(/starting without it; indicators warm up on live prices/);
  });

  it('does not retry a bad setting', async () => {
    const clock = new TestClock(0);
    const source = failing(10, () => new InputError('points', 'expected an integer from 0 to 1000 (streams.warmup_points), got -1'));
    await expect(warmUpWithRetry(source, ['BTCUSD'], -1, clock, { warn: () => undefined } as never)).rejects.toThrow(
      /streams.warmup_points/,
    );
    expect(source.calls).toBe(1);
  });
});

describe('warmUpPointsFor', () => {
  it('loads enough minutes to fill the longest declared bar series, within the configured floor and the cap', () => {
    expect(warmUpPointsFor(200, [])).toEqual({ points: 200 });
    // 10 closed 15m bars and the one open now: 165 minutes, under the configured 200
    expect(warmUpPointsFor(200, [{ market: 'BTCUSD', timeframe: '15m', history: 10 }])).toEqual({ points: 200 });
    expect(
      warmUpPointsFor(200, [
        { market: 'BTCUSD', timeframe: '5m', history: 10 },
        { market: 'BTCUSD', timeframe: '1h', history: 12 },
      ]),
    ).toEqual({ points: 780 });
    const capped = warmUpPointsFor(200, [{ market: 'BTCUSD', timeframe: '4h', history: 30 }]);
    expect(capped.points).toBe(MAX_WARM_UP_PRICES);
    expect(capped.short).toMatch(/about 4 of the 30 4h bars of BTCUSD fill from history, the rest from live data/);
    expect(warmUpPointsFor(0, [{ market: 'BTCUSD', timeframe: '1h', history: 12 }])).toEqual({ points: 0 });
  });
});
