/**
 * Bars built from the platform's trades (the trades stream): through the kernel's source port, with
 * their amounts as volume, closed by the clock at their end; a trade that arrives after its bar
 * closed is dropped, and the run's header says what each market's bars are built from.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildBacktestBundle } from '../../backtest/driver.js';
import type { Bar } from '../../src/bars/index.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/limits.js';
import { defineStrategy } from '../../src/strategy/index.js';
import type { MarketSource, MarketTrades } from '../../src/venue/market-source.js';

const T0 = Date.UTC(2025, 0, 1, 12);
const MIN = 60_000;

function bundle(seen: Bar[]) {
  const definition = defineStrategy({
    name: 'tape-bars',
    description: 'records its bars',
    params: z.object({}),
    markets: ['BTCUSD'],
    bars: [
      { market: 'BTCUSD', timeframe: '1m' },
      { market: 'BTCUSD', timeframe: '5m' },
    ],
    create: () => ({ onBar: (bar) => void seen.push(bar) }),
  });
  return buildBacktestBundle({
    definition,
    params: {},
    markets: ['BTCUSD'],
    startMs: T0,
    limits: DEFAULT_RISK_LIMITS,
    venue: { funding: { USD: '1000' } },
  });
}

describe('bars from trades', () => {
  it("take the trades' prices and amounts, close at their end on the clock, and drop a trade come too late", () => {
    const seen: Bar[] = [];
    const b = bundle(seen);
    const tape = new Subject<MarketTrades>();
    const source = { events$: new Subject(), account$: new Subject(), trades$: tape } as unknown as MarketSource;
    expect(b.kernel.barInputs(source, true)).toEqual([
      "bars of BTCUSD (1m, 5m) are built from the platform's recent trades (streams.trades_ms)",
    ]);
    b.kernel.attach(source);
    b.clock.advanceTo(T0 + 50_000);
    tape.next({
      market: 'BTCUSD',
      trades: [
        { at: T0 + 1_000, price: 100, amount: 0.5 },
        { at: T0 + 20_000, price: 103, amount: 0.25 },
        { at: T0 + 40_000, price: 99, amount: 1 },
      ],
    });
    // a price point changes nothing of bars built from trades
    b.source.step('BTCUSD', T0 + 55_000, 500);
    expect(seen).toEqual([]);
    b.clock.advanceTo(T0 + MIN);
    b.kernel.engine.tick(T0 + MIN);
    expect(seen).toEqual([
      { market: 'BTCUSD', timeframe: '1m', time: T0, closeTime: T0 + MIN, open: 100, high: 103, low: 99, close: 99, volume: 1.75 },
    ]);
    // executed at 00:59 but polled after the bar closed: dropped, the bar stays as it was heard
    b.clock.advanceTo(T0 + MIN + 2_000);
    tape.next({
      market: 'BTCUSD',
      trades: [
        { at: T0 + 59_000, price: 1, amount: 9 },
        { at: T0 + MIN + 1_000, price: 101, amount: 2 },
      ],
    });
    expect(b.kernel.engine.barFeed!.late).toBe(1); // dropped from the 5m bar too: it stays the sum of its 1m bars
    b.clock.advanceTo(T0 + 5 * MIN);
    b.kernel.engine.tick(T0 + 5 * MIN);
    expect(seen.slice(1).map((x) => [x.timeframe, x.open, x.low, x.volume])).toEqual([
      ['1m', 101, 101, 2],
      ['5m', 100, 99, 3.75],
    ]);
    b.kernel.close();
  });

  it('are built from the polled prices when there is no trades stream, as the header says', () => {
    const b = bundle([]);
    expect(b.kernel.barInputs({}, true)).toEqual([
      'bars of BTCUSD (1m, 5m) are built from the polled prices (no trades stream: volume is 0)',
    ]);
    expect(b.kernel.engine.barFeed!.inputOf('BTCUSD')).toBe('points');
    b.kernel.close();
  });
});
