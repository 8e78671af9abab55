import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, Rng } from '../../core/index.js';
import { loadOhlcvColumns, loadPriceSeries, PriceDataError } from './price-file.js';

const T0 = Date.UTC(2024, 0, 1);
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-price-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** OHLCV rows plus a vwap and a text column; every fourth row in forms only the general reader takes. */
function ohlcvFile(name: string, rows: number, seed: number): string {
  const rng = new Rng(seed);
  const out = ['timestamp,open,high,low,close,volume,vwap,venue'];
  for (let i = 0; i < rows; i++) {
    const close = (20_000 + rng.next() * 1000).toFixed(2);
    const open = (20_000 + rng.next() * 1000).toFixed(2);
    const high = (Math.max(Number(open), Number(close)) + 1).toFixed(2);
    const low = (Math.min(Number(open), Number(close)) - 1).toFixed(2);
    const at = new Date(T0 + i * 60_000).toISOString();
    const row = [at, open, high, low, close, (rng.next() * 5).toFixed(4), (Number(close) + 0.5).toFixed(3), i % 2 ? 'x' : 'y z'];
    out.push(i % 4 === 3 ? `"${row[0]}", ${row.slice(1).join(' ,')}\r` : row.join(','));
  }
  return write(name, `${out.join('\n')}\n`);
}

function failure(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('loadPriceSeries with a price column', () => {
  it('reads each column as the price with the values a load without the flag gives', () => {
    const file = ohlcvFile('all.csv', 500, 3);
    // the known layouts refuse the extra columns: compare with the same rows without them
    const known = write('known.csv', `timestamp,open,high,low,close,volume\n${ohlcvRowsWithout(file)}`);
    const whole = loadPriceSeries(known);
    const priceOnly = loadPriceSeries(known, { priceOnly: true });
    const byColumn = { close: whole.prices, open: whole.opens!, high: whole.highs!, low: whole.lows!, volume: whole.volumes! };
    for (const [column, values] of Object.entries(byColumn)) {
      const s = loadPriceSeries(file, { priceColumn: column.toUpperCase() });
      expect(s.times, column).toEqual(priceOnly.times);
      expect(s.prices, column).toEqual(values);
      expect([s.opens, s.highs, s.lows, s.volumes]).toEqual([undefined, undefined, undefined, undefined]);
    }
    expect(loadPriceSeries(known, { priceColumn: 'close' }).prices).toEqual(priceOnly.prices);
    expect(loadPriceSeries(file, { priceColumn: 'vwap' }).prices[0]).toBeCloseTo(whole.prices[0]! + 0.5, 6);
  });

  it('reads across chunk boundaries as in one chunk, and grows its columns when later rows are shorter than the first', () => {
    const rows: string[] = ['time,price,note'];
    // 4 MiB and more of long rows (the estimate's sample), then many short ones
    let i = 0;
    for (; i < 150_000; i++) rows.push(`${T0 + i},${(1_234_567 + i / 1e8).toFixed(8)},${'n'.repeat(8)}`);
    for (; i < 500_000; i++) rows.push(`${T0 + i},${1 + (i % 9)},`);
    const text = `${rows.join('\n')}\n`;
    const s = loadPriceSeries(write('grow.csv', text), { priceColumn: 'price' });
    expect(s.length).toBe(500_000);
    expect([s.times[0], s.times[499_999]]).toEqual([T0, T0 + 499_999]);
    expect([s.prices[149_999], s.prices[150_000], s.prices[499_999]]).toEqual([
      Number((1_234_567 + 149_999 / 1e8).toFixed(8)),
      1 + (150_000 % 9),
      1 + (499_999 % 9),
    ]);
  });

  it("reports a bad or missing value by the column's name at its line; other columns are not checked", () => {
    const file = write('bad.csv', `timestamp,close,vwap\n${T0},10,oops\n${T0 + 1},-1,10\n${T0 + 2}\n${T0 + 3},abc,1,extra\n`);
    const e = failure(() => loadPriceSeries(file, { priceColumn: 'close' }));
    expect(e).toBeInstanceOf(PriceDataError);
    expect((e as PriceDataError).problems.map((p) => `${p.where}: ${p.message}`)).toEqual([
      'line 3: close -1 is not positive; prices must be greater than 0',
      'line 4: close is empty',
      'line 5: close "abc" is not a number',
    ]);
  });

  it('names the option and the columns when the column or a time column is not there', () => {
    const file = write('cols.csv', `Timestamp,Close,vwap\n${T0},10,10\n`);
    const missing = failure(() => loadPriceSeries(file, { priceColumn: 'mid', priceColumnField: '--price-column' }));
    expect(missing).toBeInstanceOf(InputError);
    expect(missing.message).toBe(`--price-column: ${file} has no column "mid"; its columns are timestamp, close, vwap`);
    expect(failure(() => loadPriceSeries(write('notime.csv', 'at,close\n1,2\n'), { priceColumn: 'close' })).message).toMatch(
      /^priceColumn: .* has no time column \(timestamp\); its columns are at, close$/,
    );
    expect(failure(() => loadPriceSeries(file, { priceColumn: 'timestamp' })).message).toMatch(/"timestamp" is the time column of/);
    expect(failure(() => loadPriceSeries(file, { priceColumn: ' ' })).message).toBe(
      'priceColumn: expected a column name of the CSV header, such as close',
    );
    expect(failure(() => loadPriceSeries(write('p.json', '[]'), { priceColumn: 'close' })).message).toMatch(
      /is JSON \(List Historical Prices\)/,
    );
  });
});

describe('loadOhlcvColumns', () => {
  it('gives the five columns of one load, and refuses a file with a price only', () => {
    const file = write('ohlcv.csv', 'timestamp,open,high,low,close,volume\n1,10,12,9,11,5\n2,11,13,10,12,0\n');
    const c = loadOhlcvColumns(file);
    expect(c.length).toBe(2);
    expect([c.times, c.opens, c.highs, c.lows, c.closes, c.volumes].map((a) => Array.from(a!))).toEqual([
      [1, 2],
      [10, 11],
      [12, 13],
      [9, 10],
      [11, 12],
      [5, 0],
    ]);
    expect(loadOhlcvColumns(write('ohlc.csv', 'timestamp,open,high,low,close\n1,10,12,9,11\n')).volumes).toBeUndefined();
    expect(failure(() => loadOhlcvColumns(write('price.csv', 'timestamp,price\n1,2\n'))).message).toMatch(
      /OHLCV columns needed: open, high, low and close/,
    );
  });
});

/** The rows of an ohlcvFile without its last two columns (for the known layout). */
function ohlcvRowsWithout(file: string): string {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1, -1)
    .map((r) => r.split(',').slice(0, 6).join(','))
    .join('\n');
}
