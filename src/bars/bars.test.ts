import { describe, expect, it } from 'vitest';
import { Atr, Sma } from '../indicators/index.js';
import type { Bar } from './bar.js';
import { BarBuilder } from './bar-builder.js';
import { BarFeed } from './bar-feed.js';
import { BarSeries } from './bar-series.js';
import { updateWithBar } from './bar-indicators.js';
import { resample } from './resample.js';
import { parseTimeframe } from './timeframe.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function m1(offset: number, open: number, high: number, low: number, close: number, volume: number): Bar {
  return { market: 'BTCUSD', timeframe: '1m', time: T0 + offset, closeTime: T0 + offset + MIN, open, high, low, close, volume };
}
const ohlcv = (b: Bar): number[] => [b.time - T0, b.open, b.high, b.low, b.close, b.volume];

// a partial first bar (from 00:03), a gap (00:10 to 00:59) and a bar of the next day
const ONE_MINUTE = [
  m1(3 * MIN, 10, 12, 9, 11, 1),
  m1(4 * MIN, 11, 13, 10, 12, 2),
  m1(5 * MIN, 12, 12, 8, 9, 3),
  m1(9 * MIN, 9, 10, 9, 10, 1),
  m1(HOUR, 20, 21, 19, 20, 5),
  m1(HOUR + MIN, 20, 25, 20, 24, 1),
  m1(DAY, 30, 31, 29, 30, 2),
];

describe('timeframes', () => {
  it('parses 1m to 1d and refuses anything else, naming the field and the choices', () => {
    expect(['1m', '5m', '15m', '1h', '4h', '1d'].map((t) => parseTimeframe(t).ms)).toEqual([MIN, 5 * MIN, 15 * MIN, HOUR, 4 * HOUR, DAY]);
    expect(() => parseTimeframe('2h', 'bars[0].timeframe')).toThrow(
      /bars\[0\]\.timeframe: "2h" is not a timeframe: use one of 1m, 5m, 15m, 1h, 4h, 1d/,
    );
    expect(() => parseTimeframe('1w')).toThrow(/not a timeframe/);
    expect(() => parseTimeframe(60)).toThrow(/60 is not a timeframe/);
  });
});

describe('resample (hand-computed OHLCV, gaps and a partial first bar)', () => {
  it('1m to 5m', () => {
    expect(resample(ONE_MINUTE, parseTimeframe('5m')).map(ohlcv)).toEqual([
      [0, 10, 13, 9, 12, 3],
      [5 * MIN, 12, 12, 8, 10, 4],
      [HOUR, 20, 25, 19, 24, 6],
      [DAY, 30, 31, 29, 30, 2],
    ]);
  });
  it('1m to 1h', () => {
    expect(resample(ONE_MINUTE, parseTimeframe('1h')).map(ohlcv)).toEqual([
      [0, 10, 13, 8, 10, 7],
      [HOUR, 20, 25, 19, 24, 6],
      [DAY, 30, 31, 29, 30, 2],
    ]);
  });
  it('1m to 1d, each bar closing at the next UTC midnight', () => {
    const days = resample(ONE_MINUTE, parseTimeframe('1d'));
    expect(days.map(ohlcv)).toEqual([
      [0, 10, 25, 8, 24, 13],
      [DAY, 30, 31, 29, 30, 2],
    ]);
    expect(days.map((d) => d.closeTime - T0)).toEqual([DAY, 2 * DAY]);
  });
  it('5m to 1h gives what 1m to 1h gives', () => {
    const h = parseTimeframe('1h');
    expect(resample(resample(ONE_MINUTE, parseTimeframe('5m')), h).map(ohlcv)).toEqual(resample(ONE_MINUTE, h).map(ohlcv));
  });
  it('refuses to make bars finer than, or not a multiple of, the input', () => {
    const five = resample(ONE_MINUTE, parseTimeframe('5m'));
    expect(() => resample(five, parseTimeframe('1m'))).toThrow(/1m bars cannot be made of bars 5 min long/);
  });
});

describe('BarBuilder', () => {
  it('closes a bar at its end on the clock, or when a point at or after the end comes, never before', () => {
    const b = new BarBuilder('BTCUSD', parseTimeframe('1m'));
    expect(b.addPoint(T0 + 1_000, 100)).toBeUndefined();
    expect(b.addPoint(T0 + 59_999, 101)).toBeUndefined();
    expect(b.closeDue(T0 + 59_999)).toBeUndefined();
    expect(b.closeDue(T0 + MIN)).toMatchObject({ time: T0, closeTime: T0 + MIN, open: 100, close: 101 });
    // a point exactly at the boundary belongs to the next bar and closes the one before it
    b.addPoint(T0 + MIN, 102);
    expect(b.addPoint(T0 + 2 * MIN, 103)).toMatchObject({ time: T0 + MIN, open: 102, high: 102, close: 102 });
  });
  it('drops and counts an input for a bar already closed (a late trade); the closed bar never changes', () => {
    const b = new BarBuilder('BTCUSD', parseTimeframe('1m'));
    b.addPoint(T0, 100, 1);
    const closed = b.closeDue(T0 + MIN)!;
    b.addPoint(T0 + 30_000, 90, 5);
    expect(b.late).toBe(1);
    expect(closed).toMatchObject({ low: 100, volume: 1 });
    expect(b.closesAt).toBeUndefined();
  });
});

describe('BarSeries', () => {
  it('keeps the latest bars up to its capacity, oldest first', () => {
    const s = new BarSeries('BTCUSD', '1m', 3);
    for (const b of ONE_MINUTE.slice(0, 5)) s.push(b);
    expect(s.length).toBe(3);
    expect(s.toArray().map((b) => b.open)).toEqual([12, 9, 20]);
    expect(s.last()?.open).toBe(20);
    expect(s.at(-2)?.open).toBe(9);
    expect(s.at(5)).toBeUndefined();
    expect(s.latest(2).map((b) => b.open)).toEqual([9, 20]);
  });
});

describe('BarFeed', () => {
  it('delivers bars closing at a shared boundary shorter timeframe first, each already in its series', () => {
    const feed = new BarFeed([
      { market: 'BTCUSD', timeframe: '4h' },
      { market: 'BTCUSD', timeframe: '1h' },
    ]);
    feed.point('BTCUSD', 'points', T0 + 3 * HOUR + 10, 100);
    expect(feed.nextClose()).toBe(T0 + 4 * HOUR);
    const closed = feed.closeDue(T0 + 4 * HOUR);
    expect(closed.map((b) => b.timeframe)).toEqual(['1h', '4h']);
    expect(feed.series('BTCUSD', '4h')?.length).toBe(1);
    expect(feed.series('BTCUSD', '5m')).toBeUndefined();
  });
  it('counts only the input its market is built from, and checks a file spacing against the timeframes', () => {
    const feed = new BarFeed([{ market: 'BTCUSD', timeframe: '1h' }]);
    feed.use('BTCUSD', 'trades');
    feed.point('BTCUSD', 'points', T0, 100);
    feed.point('BTCUSD', 'trades', T0 + 1, 101, 0.5);
    expect(feed.closeDue(T0 + HOUR)[0]).toMatchObject({ open: 101, volume: 0.5 });
    expect(() => feed.use('BTCUSD', 'bars', 7 * MIN)).toThrow(
      /bars: the data's bars are 7 min apart, so 1h bars of BTCUSD cannot be made of whole rows/,
    );
  });
  it('refuses an unknown timeframe or a bad history length at construction', () => {
    expect(() => new BarFeed([{ market: 'BTCUSD', timeframe: '3m' }])).toThrow(/bars\[BTCUSD\]\.timeframe: "3m" is not a timeframe/);
    expect(() => new BarFeed([{ market: 'BTCUSD', timeframe: '1h', history: 0 }])).toThrow(/history: 0 is not a count of bars/);
  });
});

describe('indicators on bars', () => {
  it('ATR takes high, low and close; a price indicator takes the close', () => {
    const atr = new Atr(2);
    const sma = new Sma(2);
    const atrPoints = new Atr(2);
    for (const b of ONE_MINUTE.slice(0, 4)) {
      updateWithBar(atr, b);
      updateWithBar(sma, b);
      atrPoints.update(b.close, b.close, b.close);
    }
    // true ranges from the 2nd bar: 3 (13-10), 4 (12-8, 12-8), 1 (10-9): seeded (3+4)/2, then Wilder (1-3.5)/2+3.5
    expect(atr.value).toBeCloseTo(2.25, 10);
    expect(sma.value).toBeCloseTo(9.5, 10);
    expect(atrPoints.value).not.toBeCloseTo(atr.value!, 5);
  });
});
