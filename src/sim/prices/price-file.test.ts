import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, Rng } from '../../core/index.js';
import { parseTimeAt, parseTimeBytes } from './price-time.js';
import {
  loadPriceSeries,
  MAX_LISTED_PROBLEMS,
  parsePriceCsv,
  parsePriceJson,
  parseRfc3339At,
  PriceDataError,
  type PriceSeries,
} from './price-file.js';

const T0 = Date.UTC(2024, 0, 1);

function problemsOf(fn: () => unknown): PriceDataError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PriceDataError);
    return err as PriceDataError;
  }
  throw new Error('expected a PriceDataError');
}

describe('parsePriceCsv', () => {
  it('reads timestamp,price rows with RFC 3339 and epoch-ms timestamps', () => {
    const s = parsePriceCsv('timestamp,price\n2024-01-01T00:00:00Z,100\n1704067260000,101.5\n', 'a.csv');
    expect(s.source).toBe('a.csv');
    expect(s.length).toBe(2);
    expect(Array.from(s.times)).toEqual([T0, T0 + 60_000]);
    expect(Array.from(s.prices)).toEqual([100, 101.5]);
    expect(s.highs).toBeUndefined();
  });

  it('reads OHLCV rows, using close as the price and keeping open, high, low and volume', () => {
    const s = parsePriceCsv('timestamp,open,high,low,close,volume\n1000,10,12,9,11,5\n2000,11,11.5,10.5,11.25,0\n', 'o.csv');
    expect(Array.from(s.prices)).toEqual([11, 11.25]);
    expect(Array.from(s.opens!)).toEqual([10, 11]);
    expect(Array.from(s.highs!)).toEqual([12, 11.5]);
    expect(Array.from(s.lows!)).toEqual([9, 10.5]);
    expect(Array.from(s.volumes!)).toEqual([5, 0]);
  });

  it('finds columns by name in any order and accepts CRLF, a BOM, quotes, spaces and blank lines', () => {
    const text = '\uFEFF"Price" , Timestamp\r\n"100.5", "2024-01-01T00:00:00Z"\r\n\r\n 101 ,2024-01-01T02:00:00+01:00\r\n';
    const s = parsePriceCsv(text, 'q.csv');
    expect(Array.from(s.prices)).toEqual([100.5, 101]);
    expect(Array.from(s.times)).toEqual([T0, T0 + 3_600_000]);
  });

  it('accepts average_price as the price column and a file without a final newline', () => {
    const s = parsePriceCsv('timestamp,average_price\n1,2', 'x.csv');
    expect([s.times[0], s.prices[0]]).toEqual([1, 2]);
  });

  it('parses decimals exactly as Number() does, on the fast path and the fallback', () => {
    const rng = new Rng(7);
    const values = ['0.1', '0.3', '123456789.123456', '1e3', '2.5E-2', '.5', '7.', '1234567890123456789'];
    for (let i = 0; i < 200; i++) values.push((rng.next() * 10 ** rng.int(-3, 9)).toFixed(rng.int(0, 10)));
    const rows = values.filter((v) => Number(v) > 0).map((v, i) => `${i},${v}`);
    const s = parsePriceCsv(`timestamp,price\n${rows.join('\n')}`, 'n.csv');
    expect(Array.from(s.prices)).toEqual(rows.map((r) => Number(r.split(',')[1])));
  });

  it('reads OHLCV rows the same on the one-pass path and on the fallback (quotes, spaces, exponents, CRLF)', () => {
    const rng = new Rng(11);
    const plain: string[] = [];
    const odd: string[] = [];
    for (let i = 0; i < 300; i++) {
      const at = new Date(T0 + i * 60_000).toISOString();
      const close = (20_000 + rng.next() * 1000).toFixed(rng.int(0, 4));
      const open = (20_000 + rng.next() * 1000).toFixed(2);
      const high = (Math.max(Number(open), Number(close)) + 1).toFixed(3);
      const low = (Math.min(Number(open), Number(close)) - 1).toFixed(1);
      const volume = (rng.next() * 5).toFixed(rng.int(0, 6));
      plain.push(`${at},${open},${high},${low},${close},${volume}`);
      // the same values in forms only the fallback reads: quotes, padding, an exponent, a CR line end
      odd.push(
        i % 3 === 0
          ? `"${at}", ${open} ,${high},${low},${Number(close).toExponential()},${volume}\r`
          : `${at},${open},${high},${low},${close},${volume}${i % 2 ? '\r' : ''}`,
      );
    }
    const a = parsePriceCsv(`timestamp,open,high,low,close,volume\n${plain.join('\n')}\n`, 'a.csv');
    const b = parsePriceCsv(`timestamp,open,high,low,close,volume\n${odd.join('\n')}`, 'b.csv');
    for (const k of ['times', 'prices', 'opens', 'highs', 'lows', 'volumes'] as const) expect(Array.from(b[k]!)).toEqual(Array.from(a[k]!));
    expect(Array.from(a.prices)).toEqual(plain.map((r) => Number(r.split(',')[4])));
  });

  it('reports a bad row after clean ones with its line, as the fallback reads it', () => {
    const e = problemsOf(() => parsePriceCsv('timestamp,price\n1,2\n2,3\n3,4\r5\n4,-1\n5,6,7\n', 'c.csv'));
    expect(e.problems.map((p) => p.line)).toEqual([4, 5, 6]);
  });

  it('reports every bad row with its line and the problem', () => {
    const text = [
      'timestamp,price',
      '2024-01-01T00:00:00Z,abc',
      '1704067200000,-1',
      '1704067200000,0',
      '2024-01-01T00:00:01Z,',
      '5,6,7',
      '2024-01-01T00:00:02Z',
    ].join('\n');
    const err = problemsOf(() => parsePriceCsv(text, 'bad.csv'));
    expect(err.problemCount).toBe(6);
    expect(err.problems.map((p) => [p.line, p.message])).toEqual([
      [2, 'price "abc" is not a number'],
      [3, 'price -1 is not positive; prices must be greater than 0'],
      [4, 'price 0 is not positive; prices must be greater than 0'],
      [5, 'price is empty'],
      [6, 'expected 2 fields (timestamp,price), found 3'],
      [7, 'expected 2 fields (timestamp,price), found 1'],
    ]);
    expect(err.message).toContain('bad.csv: 6 problems in price data');
    expect(err.message).toContain('line 3: price -1 is not positive');
    expect(err).toBeInstanceOf(InputError);
    expect(err.field).toBe('bad.csv');
  });

  it('reports unsorted and duplicate timestamps naming the earlier line', () => {
    const err = problemsOf(() => parsePriceCsv('timestamp,price\n1000,1\n2000,1\n2000,1\n1500,1\n3000,1\n', 's.csv'));
    expect(err.problems.map((p) => [p.line, p.message])).toEqual([
      [4, 'duplicate timestamp (same as line 3); each point needs its own time'],
      [5, "timestamp is earlier than line 3's; rows must be in ascending time order"],
    ]);
  });

  it.each([
    ['1704067200', 'looks like epoch seconds; use epoch milliseconds (1704067200000) or RFC 3339'],
    ['2024-01-01', 'has no time of day; write 2024-01-01T00:00:00Z'],
    ['2024-01-01T00:00:00', 'has no time zone; add Z for UTC'],
    ['2024-02-30T00:00:00Z', 'is not a valid date and time (a field is out of range)'],
    ['2024-01-01T24:00:00Z', 'is not a valid date and time (a field is out of range)'],
    ['Jan 1 2024', 'is not a valid time; use RFC 3339 with a zone (2024-01-31T00:00:00Z) or epoch milliseconds (1706659200000)'],
    ['-5', 'is not a valid time'],
    ['12345678901234567', 'is too large for epoch milliseconds'],
  ])('rejects the timestamp %s with the fix', (value, message) => {
    const err = problemsOf(() => parsePriceCsv(`timestamp,price\n${value},1\n`, 't.csv'));
    expect(err.problems[0]!.message).toContain(`timestamp "${value}" ${message}`);
  });

  it('checks that OHLC rows are consistent and volumes are not negative', () => {
    const text = 'timestamp,open,high,low,close,volume\n1,10,9,8,9.5,1\n2,10,12,10.5,11,1\n3,10,12,9,11,-2\n';
    const err = problemsOf(() => parsePriceCsv(text, 'o.csv'));
    expect(err.problems.map((p) => [p.line, p.message])).toEqual([
      [2, 'high 9 is below the open, close or low'],
      [3, 'low 10.5 is above the open, close or high'],
      [4, 'volume -2 is negative; volumes must be 0 or more'],
    ]);
  });

  it.each([
    ['', 'the first line must be the header row'],
    ['1000,5\n2000,6', 'the first line must be the header row'],
    ['time,price\n1,1', 'unknown column "time"'],
    ['timestamp,value\n1,1', 'missing column "price" (or "close")'],
    ['price\n1', 'missing column "timestamp"'],
    ['timestamp,price,close\n1,1,1', 'columns "price" and "close" both give the price; keep one'],
    ['timestamp,open,close\n1,1,1', 'OHLC data needs all of the columns open, high, low and close'],
    ['timestamp,price\n', 'no data rows after the header'],
  ])('rejects a bad header or empty file (%j)', (text, message) => {
    expect(problemsOf(() => parsePriceCsv(text, 'h.csv')).message).toContain(message);
  });

  it('lists the first problems and counts the rest', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `${i},x`);
    const err = problemsOf(() => parsePriceCsv(`timestamp,price\n${rows.join('\n')}`, 'm.csv'));
    expect(err.problemCount).toBe(50);
    expect(err.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(err.message).toContain(`… and ${50 - MAX_LISTED_PROBLEMS} more`);
  });
});

describe('parseRfc3339At', () => {
  it('agrees with Date.parse on random valid date-times, offsets and fractions', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 2000; i++) {
      const ms = rng.int(-2e12, 4e12);
      let iso = new Date(ms).toISOString();
      if (i % 3 === 0) iso = iso.replace('Z', `${rng.next() < 0.5 ? '+' : '-'}0${rng.int(0, 9)}:${rng.int(10, 59)}`);
      if (i % 5 === 0) iso = iso.replace(/\.\d+/, '');
      expect(parseRfc3339At(iso, 0, iso.length)).toBe(Date.parse(iso));
    }
  });

  it('reads bytes as it reads text (parseTimeBytes and parseTimeAt agree on valid, odd and broken timestamps)', () => {
    const rng = new Rng(9);
    const forms = [
      '2023-02-29T00:00:00Z',
      '2024-01-01T00:00:60Z',
      '2024-01-01T00:00:00.Z',
      '2024-01-01T00:00:00+0100',
      '20x4-01-01T00:00:00Z',
      '2024-01-01t00:00:00z',
      '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00.0005Z',
      ' "2024-01-01T00:00:00Z" ',
      '1704067200000',
      '1704067200',
      '',
      '12345678',
    ];
    for (let i = 0; i < 2000; i++) {
      let iso = new Date(rng.int(-2e12, 4e12)).toISOString();
      if (i % 3 === 0)
        iso = iso.replace('Z', `${rng.next() < 0.5 ? '+' : '-'}${rng.int(0, 2)}${rng.int(0, 9)}:${rng.int(0, 6)}${rng.int(0, 9)}`);
      if (i % 7 === 0) iso = iso.slice(0, rng.int(0, iso.length));
      forms.push(iso);
    }
    for (const t of forms) {
      // the field sits inside a row, as in a file: what follows it must not change the answer
      const row = `${t},1\n`;
      const text = parseTimeAt(row, 0, t.length);
      const bytes = parseTimeBytes(Buffer.from(row, 'latin1'), 0, t.length);
      expect(Number.isNaN(bytes) ? 'NaN' : bytes, t).toBe(Number.isNaN(text) ? 'NaN' : text);
    }
  });

  it('accepts a lower-case t and z, a space separator and sub-millisecond fractions', () => {
    expect(parseRfc3339At('2024-01-01t00:00:00z', 0, 20)).toBe(T0);
    expect(parseRfc3339At('2024-01-01 00:00:00Z', 0, 20)).toBe(T0);
    expect(parseRfc3339At('2024-01-01T00:00:00.0005Z', 0, 25)).toBeCloseTo(T0 + 0.5, 6);
    expect(parseRfc3339At('2024-02-29T00:00:00Z', 0, 20)).toBe(Date.UTC(2024, 1, 29));
  });

  it.each(['2023-02-29T00:00:00Z', '2024-01-01T00:00:60Z', '2024-01-01T00:00:00.Z', '2024-01-01T00:00:00+0100', '20x4-01-01T00:00:00Z'])(
    'returns NaN for %s',
    (value) => expect(parseRfc3339At(value, 0, value.length)).toBeNaN(),
  );
});

describe('parsePriceJson', () => {
  const points =
    '[{"average_price":"9245.50","timestamp":"2020-01-17T18:36:00.000Z"},{"average_price":"9265.5","timestamp":"2020-01-17T18:37:00Z"}]';
  const expected = { times: [Date.UTC(2020, 0, 17, 18, 36), Date.UTC(2020, 0, 17, 18, 37)], prices: [9245.5, 9265.5] };
  const plain = (s: PriceSeries): unknown => ({ times: Array.from(s.times), prices: Array.from(s.prices) });

  it.each([
    ['the platform spec shape {market, prices, total_count}', `{"market":"BTCUSD","prices":${points},"total_count":2}`],
    ['the schema shape {items, total_count}', `{"items":${points},"total_count":2}`],
    ['a bare array', points],
  ])('reads %s', (_name, text) => {
    expect(plain(parsePriceJson(text, 'p.json'))).toEqual(expected);
  });

  it('reports bad items by index with the problem', () => {
    const text = JSON.stringify({
      prices: [
        { average_price: '10', timestamp: '2020-01-01T00:00:00Z' },
        { average_price: 'x', timestamp: '2020-01-01T00:01:00Z' },
        { average_price: '-2', timestamp: 'yesterday' },
        { timestamp: '2020-01-01T00:00:00Z' },
        7,
        { average_price: '11', timestamp: '2020-01-01T00:00:00Z' },
        { average_price: '11', timestamp: 1577836800 },
      ],
    });
    const err = problemsOf(() => parsePriceJson(text, 'bad.json'));
    expect(err.problems.map((p) => `${p.where}: ${p.message}`)).toEqual([
      'prices[1]: average_price "x" is not a number',
      'prices[2]: timestamp "yesterday" is not a valid time; use RFC 3339 with a zone (2024-01-31T00:00:00Z) or epoch milliseconds (1706659200000)',
      'prices[2]: average_price -2 is not positive; prices must be greater than 0',
      'prices[3]: missing "average_price"',
      'prices[4]: expected an object {"average_price": "…", "timestamp": "…"}',
      'prices[5]: duplicate timestamp (same as the item before); points must be in strictly ascending time order',
      'prices[6]: timestamp "1577836800" looks like epoch seconds; use epoch milliseconds (1577836800000) or RFC 3339',
    ]);
  });

  it.each([
    ['{"prices": [', 'not valid JSON'],
    ['{"data": []}', 'expected an object with a "prices" (or "items") array'],
    ['{"prices": []}', 'prices: no price points'],
  ])('rejects %s', (text, message) => {
    expect(problemsOf(() => parsePriceJson(text, 'e.json')).message).toContain(message);
  });
});

describe('loadPriceSeries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tradeloop-price-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  it('chooses CSV or JSON by extension, and by content for other names', () => {
    expect(loadPriceSeries(write('a.csv', 'timestamp,price\n1,2\n')).prices[0]).toBe(2);
    expect(loadPriceSeries(write('a.json', '[{"average_price":"3","timestamp":"2024-01-01T00:00:00Z"}]')).prices[0]).toBe(3);
    expect(loadPriceSeries(write('a.data', ' {"items":[{"average_price":"4","timestamp":5}]}')).prices[0]).toBe(4);
    expect(loadPriceSeries(write('b.data', 'timestamp,price\n1,5\n')).prices[0]).toBe(5);
  });

  it('reads a UTF-8 file (not plain ASCII) as UTF-8', () => {
    const s = loadPriceSeries(write('u.csv', '\uFEFFtimestamp,price\n1,2\n2,3\n'));
    expect(Array.from(s.prices)).toEqual([2, 3]);
    expect(() => loadPriceSeries(write('e.csv', 'timestamp,price\n1,2\n2,3€\n'))).toThrow('price "3€" is not a number');
  });

  it('reads a file larger than its read size in chunks, as the whole text would read (values, problems, line numbers)', () => {
    // ~9 MB: rows straddle the 4 MiB reads; a comment-free UTF-8 header and CRLF line ends
    const rows: string[] = ['timestamp,open,high,low,close,volume'];
    const rng = new Rng(5);
    for (let i = 0; i < 140_000; i++) {
      const c = (20_000 + rng.next() * 100).toFixed(2);
      rows.push(
        `${new Date(T0 + i * 60_000).toISOString()},${c},${(Number(c) + 1).toFixed(2)},${(Number(c) - 1).toFixed(2)},${c},${(rng.next() * 9).toFixed(5)}`,
      );
    }
    const text = `\uFEFF${rows.join('\r\n')}\r\n`;
    const file = write('big.csv', text);
    expect(statSync(file).size).toBeGreaterThan(2 * 4 * 1024 * 1024);
    const chunked = loadPriceSeries(file);
    const whole = parsePriceCsv(text, file);
    for (const k of ['times', 'prices', 'opens', 'highs', 'lows', 'volumes'] as const) expect(chunked[k]).toEqual(whole[k]);
    // a bad row past the first read names its own line, as in the whole text
    const badRows = [...rows];
    badRows[100_000] = badRows[100_000]!.replace(/,[^,]*$/, ',€5');
    const e = problemsOf(() => loadPriceSeries(write('bad-big.csv', badRows.join('\n'))));
    expect(e.problems.map((p) => [p.line, p.message])).toEqual([[100_001, 'volume "€5" is not a number']]);
  });

  it('keeps only times and prices when asked, still checking every column', () => {
    const ohlcv = 'timestamp,open,high,low,close,volume\n1,10,12,9,11,5\n2,11,13,10,12,6\n';
    const s = loadPriceSeries(write('p.csv', ohlcv), { priceOnly: true });
    expect([Array.from(s.times), Array.from(s.prices)]).toEqual([
      [1, 2],
      [11, 12],
    ]);
    expect([s.opens, s.highs, s.lows, s.volumes]).toEqual([undefined, undefined, undefined, undefined]);
    expect(loadPriceSeries(write('p2.csv', ohlcv)).highs).toEqual(Float64Array.from([12, 13]));
    expect(() => loadPriceSeries(write('p3.csv', 'timestamp,open,high,low,close,volume\n1,10,8,9,11,5\n'), { priceOnly: true })).toThrow(
      'high 8 is below the open, close or low',
    );
  });

  it('reads an empty file, a header alone and a file with no final newline as the text would', () => {
    expect(() => loadPriceSeries(write('empty.csv', ''))).toThrow('the first line must be the header row');
    expect(() => loadPriceSeries(write('head.csv', 'timestamp,price\n'))).toThrow('no data rows after the header');
    expect(Array.from(loadPriceSeries(write('nofinal.csv', 'timestamp,price\n1,2\n2,3')).prices)).toEqual([2, 3]);
  });

  it('names the file in data errors and when the file cannot be read', () => {
    const bad = write('bad.csv', 'timestamp,price\n1,x\n');
    expect(() => loadPriceSeries(bad)).toThrow(`${bad}: 1 problem in price data`);
    const missing = join(dir, 'missing.csv');
    expect(() => loadPriceSeries(missing)).toThrow(`data: cannot read price file ${missing} (ENOENT); check the path`);
  });
});
