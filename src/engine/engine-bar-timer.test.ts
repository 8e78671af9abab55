/**
 * The live bar timer on its own (a kernel with `barTimer` on, as a live or paper run builds it): each
 * bar closes at its end on the run's clock though no price comes after it, never a millisecond
 * before; bars closing at one boundary reach `onBar` shortest first, once each; the timer re-arms for
 * the next end while a bar is open, an interval with no price makes no bar (docs/strategies.md, bars:
 * "a gap"), at most one timer is ever pending, and none once the bars are stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock, type TimerHandle } from '../clock/index.js';
import { Journal } from '../exec/index.js';
import { RiskLimitsSchema } from '../risk/index.js';
import { defineStrategy } from '../strategy/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { Kernel } from './kernel.js';
import { StrategyRunner } from './strategy-runner.js';

const MIN = 60_000;
/** A UTC multiple of 15 minutes: the 1m, 5m and 15m bars all start here. */
const T0 = Date.UTC(2024, 0, 1);

/**
 * A TestClock that counts the timers the kernel arms (alive: armed, neither fired nor cancelled) and
 * the most alive at once. `lateMs` makes each timer fire that much after the time asked, as a machine
 * waking from sleep fires an overdue timer. The test's own timers (`schedule`) are not counted.
 */
class CountingClock extends TestClock {
  alive = 0;
  maxAlive = 0;
  armed = 0;
  lateMs = 0;

  override setTimeout(fn: () => void, delayMs: number): TimerHandle {
    let live = true;
    const end = (): void => {
      if (live) this.alive--;
      live = false;
    };
    // a timer armed again and again at one time would loop in advanceTo for ever: fail instead
    if (++this.armed > 1_000) throw new Error(`${this.armed} timers armed: the bar timer re-arms without end`);
    this.alive++;
    this.maxAlive = Math.max(this.maxAlive, this.alive);
    const handle = super.setTimeout(() => {
      end();
      fn();
    }, delayMs + this.lateMs);
    return {
      cancel: () => {
        end();
        handle.cancel();
      },
    };
  }

  /** A timer of the test itself (a price poll) at `at`. */
  schedule(at: number, fn: () => void): void {
    super.setTimeout(fn, at - this.now());
  }
}

interface Seen {
  readonly tf: string;
  /** Bar start and end, ms after T0. */
  readonly from: number;
  readonly to: number;
  readonly ohlc: readonly number[];
  readonly volume: number;
  /** The engine's clock as `onBar` ran, ms after T0. */
  readonly now: number;
  /** Bars of each declared series in `ctx.bars` as `onBar` ran. */
  readonly kept: Readonly<Record<string, number>>;
}

const TIMEFRAMES = ['1m', '5m', '15m'] as const;

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

function rig() {
  const clock = new CountingClock(T0);
  const seen: Seen[] = [];
  const watcher = defineStrategy({
    name: 'watcher',
    description: 'takes 1m, 5m and 15m bars of BTCUSD and notes each, never trades',
    params: z.object({}),
    markets: ['BTCUSD'],
    bars: () => TIMEFRAMES.map((timeframe) => ({ market: 'BTCUSD', timeframe })),
    create: () => ({
      onEvent: () => undefined,
      onBar: (bar, ctx) => {
        seen.push({
          tf: bar.timeframe,
          from: bar.time - T0,
          to: bar.closeTime - T0,
          ohlc: [bar.open, bar.high, bar.low, bar.close],
          volume: bar.volume,
          now: ctx.now() - T0,
          kept: Object.fromEntries(TIMEFRAMES.map((tf) => [tf, ctx.bars('BTCUSD', tf).length])),
        });
      },
    }),
  });
  const journal = new Journal(':memory:');
  journals.push(journal);
  const kernel = new Kernel(
    { clock, venue: new ScriptedVenue(() => clock.now()), journal },
    {
      limits: RiskLimitsSchema.parse({}),
      refPrefix: 'bt',
      fillsSinceMs: 0,
      barTimer: true,
      strategies: (ids) => [new StrategyRunner('watcher', watcher, {}, ['BTCUSD'], ids)],
    },
  );
  const engine = kernel.engine;
  /** A polled price at `offset` ms after T0: the clock moves there (firing what is due), then the price comes. */
  const price = (offset: number, p: number): void => {
    clock.advanceTo(T0 + offset);
    engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: p });
  };
  /** The bars seen so far, as [timeframe, start, end, engine's clock] (ms after T0). */
  const when = (): Array<[string, number, number, number]> => seen.map((b) => [b.tf, b.from, b.to, b.now]);
  return { clock, kernel, engine, seen, price, when, at: (offset: number) => clock.advanceTo(T0 + offset) };
}

describe('the live bar timer', () => {
  it('closes a bar at its end on the clock in a quiet market, with the OHLC of its prices, and not 1 ms before', () => {
    const s = rig();
    expect(s.clock.pending()).toBe(0);
    s.price(5_000, 100);
    s.price(20_000, 105);
    s.price(40_000, 98);
    s.price(55_000, 101);
    // armed once, at the first price, for the 1m end; the later prices found it armed for that end
    expect(s.clock.armed).toBe(1);
    expect(s.clock.alive).toBe(1);

    s.at(MIN - 1);
    expect(s.seen).toEqual([]);

    s.at(MIN);
    expect(s.seen).toEqual([
      { tf: '1m', from: 0, to: MIN, ohlc: [100, 105, 98, 101], volume: 0, now: MIN, kept: { '1m': 1, '5m': 0, '15m': 0 } },
    ]);
    // re-armed at once for the next end of a bar still open: the 5m bar
    expect(s.clock.alive).toBe(1);
  });

  it('re-arms for the next end; an interval with no price makes no bar; bars of one boundary come shortest first, once each', () => {
    const s = rig();
    s.price(10_000, 100);
    s.price(30_000, 102);
    s.at(MIN);
    expect(s.when()).toEqual([['1m', 0, MIN, MIN]]);

    // minutes 1 to 3 are quiet: no 1m bar for them (a gap, none carried), the 5m bar stays open
    s.at(4 * MIN + 10_000);
    expect(s.when()).toEqual([['1m', 0, MIN, MIN]]);
    expect(s.clock.alive).toBe(1);
    s.price(4 * MIN + 10_000, 97);
    s.price(4 * MIN + 50_000, 99);

    s.at(5 * MIN - 1);
    expect(s.seen).toHaveLength(1);
    s.at(5 * MIN);
    expect(s.seen.slice(1)).toEqual([
      // every bar closing at 5m is in ctx.bars before onBar hears the first of them
      { tf: '1m', from: 4 * MIN, to: 5 * MIN, ohlc: [97, 99, 97, 99], volume: 0, now: 5 * MIN, kept: { '1m': 2, '5m': 1, '15m': 0 } },
      { tf: '5m', from: 0, to: 5 * MIN, ohlc: [100, 102, 97, 99], volume: 0, now: 5 * MIN, kept: { '1m': 2, '5m': 1, '15m': 0 } },
    ]);

    // the 15m bar is still open: the timer waits for its end, through ten quiet minutes
    expect(s.clock.alive).toBe(1);
    s.at(15 * MIN - 1);
    expect(s.seen).toHaveLength(3);
    s.at(15 * MIN);
    expect(s.when().slice(3)).toEqual([['15m', 0, 15 * MIN, 15 * MIN]]);
    expect(s.seen[3]?.ohlc).toEqual([100, 102, 97, 99]);

    // nothing open: no timer, and an hour of silence makes no bar
    expect(s.clock.alive).toBe(0);
    s.at(75 * MIN);
    expect(s.seen).toHaveLength(4);
    expect(s.clock.maxAlive).toBe(1);
  });

  it('keeps one timer when a price comes at the boundary itself, before the timer fires', () => {
    const s = rig();
    s.clock.schedule(T0 + MIN, () => s.engine.onMarketEvent({ kind: 'price', market: 'BTCUSD', at: s.clock.now(), price: 110 }));
    s.price(10_000, 100);
    // the poll made first fires first at 1m: its price closes the 1m bar, and the timer armed for
    // that end is moved to the next one, not left beside it
    s.at(MIN);
    expect(s.when()).toEqual([['1m', 0, MIN, MIN]]);
    expect(s.clock.alive).toBe(1);
    // the price at the boundary opens the next bar, not the closed one
    s.at(2 * MIN);
    expect(s.seen.map((b) => [b.tf, b.from, ...b.ohlc])).toEqual([
      ['1m', 0, 100, 100, 100, 100],
      ['1m', MIN, 110, 110, 110, 110],
    ]);
    expect(s.clock.alive).toBe(1);
    // and a price at the boundary after the timer fired closes nothing twice
    s.price(5 * MIN, 120);
    expect(s.when().slice(2)).toEqual([['5m', 0, 5 * MIN, 5 * MIN]]);
    s.at(20 * MIN);
    expect(s.when().slice(3)).toEqual([
      ['1m', 5 * MIN, 6 * MIN, 6 * MIN],
      ['5m', 5 * MIN, 10 * MIN, 10 * MIN],
      ['15m', 0, 15 * MIN, 15 * MIN],
    ]);
    expect(s.clock.alive).toBe(0);
    expect(s.clock.maxAlive).toBe(1);
  });

  it('closes every bar a jump of the clock passes, in order, once each, at its own end', () => {
    const s = rig();
    s.price(10_000, 100);
    s.at(20 * MIN);
    expect(s.when()).toEqual([
      ['1m', 0, MIN, MIN],
      ['5m', 0, 5 * MIN, 5 * MIN],
      ['15m', 0, 15 * MIN, 15 * MIN],
    ]);
    expect(s.clock.alive).toBe(0);
    expect(s.clock.maxAlive).toBe(1);
  });

  it('closes every bar due when the timer fires late (a machine waking after several bars), in order, once each', () => {
    const s = rig();
    s.clock.lateMs = 19 * MIN;
    s.price(10_000, 100);
    s.at(20 * MIN - 1);
    expect(s.seen).toEqual([]);
    s.clock.lateMs = 0;
    s.at(20 * MIN);
    // all due at once: shortest first, each heard at the time the timer woke
    expect(s.when()).toEqual([
      ['1m', 0, MIN, 20 * MIN],
      ['5m', 0, 5 * MIN, 20 * MIN],
      ['15m', 0, 15 * MIN, 20 * MIN],
    ]);
    expect(s.clock.alive).toBe(0);
    expect(s.clock.armed).toBe(1);
    s.at(60 * MIN);
    expect(s.seen).toHaveLength(3);
  });

  it('leaves no timer pending once stopped, with bars open, and closes none after', () => {
    const s = rig();
    s.price(10_000, 100);
    s.at(MIN);
    expect(s.seen).toHaveLength(1);
    expect(s.clock.alive).toBe(1);
    s.kernel.close();
    expect(s.clock.alive).toBe(0);
    expect(s.clock.pending()).toBe(0);
    s.at(60 * MIN);
    expect(s.seen).toHaveLength(1);
    expect(s.clock.pending()).toBe(0);
  });
});
